import { MASK, redact } from './redact.js';
import type { Extraction, SecretType } from './types.js';

/** A secret the engine saw in a message, kept so that every text of the message can hide it. */
export interface SecretValue {
  readonly type: SecretType;
  readonly value: string;
}

/**
 * Candidates at or above this confidence are hidden wherever the message is shown, not only the
 * winner: a runner-up code is as good as the winner to whoever reads it. Low on purpose: hiding an
 * order number costs a reader little, showing a code costs an account.
 */
export const MASK_THRESHOLD = 0.05;

/** The secrets of an engine result that the message's texts must hide. */
export const secretsToMask = (extraction: Pick<Extraction, 'candidates'>): SecretValue[] =>
  extraction.candidates.filter((c) => c.confidence >= MASK_THRESHOLD).map((c) => ({ type: c.type, value: c.value }));

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * What may stand between two characters of a code as a reader sees it: blanks of every width,
 * invisible joiners and soft hyphens, hyphens and dashes, dots and middle dots, underscores, and
 * U+0001, which an HTML view puts where a tag stood (so `<td>4</td><td>8</td>` reads `4␁␁8`).
 * A code is looked for by its letters and digits alone: `QX7K-92MD` is also `QX7K 92MD`,
 * `QX7K92MD` and `Q X 7 K 9 2 M D`.
 */
const SEPARATOR = '[\\s\\u0001\\u00ad\\u00b7\\u200b-\\u200d\\u2060\\ufeff._\\-\\u2010-\\u2015\\u2212\\u2022\\u30fb]';
const SEPARATOR_RUN = `${SEPARATOR}{0,40}`;
const SEPARATORS = new RegExp(`${SEPARATOR}+`, 'gu');

/** The letters and digits of a code: what a reader must not be able to read, whatever splits it. */
export const codeCore = (code: string): string => code.replace(/[^\p{L}\p{N}]/gu, '');

/** A code as a whole word, its characters possibly split by {@link SEPARATOR}s. */
const codePattern = (core: string): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])${[...core].map(escapeRe).join(SEPARATOR_RUN)}(?![\\p{L}\\p{N}])`, 'giu');

const looksLikeToken = (piece: string): boolean =>
  piece.length >= 24 || (piece.length >= 8 && /\d/.test(piece) && /[a-z]/i.test(piece));

/**
 * The parts of a link that carry its secret (path segments and query values that look like
 * tokens), as written and percent-decoded: a mail may show the token on its own, or the link in
 * another spelling than the one the engine kept.
 */
const tokenPieces = (link: string): string[] => {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return [];
  }
  const pieces = [...url.pathname.split('/'), ...[...url.searchParams.values()], url.hash.slice(1)];
  const decoded = pieces.flatMap((p) => {
    try {
      return [p, decodeURIComponent(p)];
    } catch {
      return [p];
    }
  });
  return [...new Set(decoded.filter(looksLikeToken))];
};

/**
 * One replacement, compiled on first use and tried only when its `needle` is in the text: most
 * texts (a subject, on the delivery path) hold none of the secrets, and then cost a few
 * `includes`, no regular expression at all. A `loose` needle is looked for in the text with
 * its separators removed, lower-cased (how a split code is written).
 */
interface Rewrite {
  readonly needle: string;
  readonly loose: boolean;
  readonly source: () => RegExp;
  readonly replacement: string;
}

const exact = (literal: string, replacement: string): Rewrite => ({ needle: literal, loose: false, source: () => new RegExp(escapeRe(literal), 'g'), replacement });

const linkRewrites = (link: string): Rewrite[] => {
  const shown = redact({ type: 'magic_link', value: link });
  const spellings = new Set([link, link.replaceAll('&', '&amp;'), link.replaceAll('&', '&#38;')]);
  return [...[...spellings].map((s) => exact(s, shown)), ...tokenPieces(link).map((p) => exact(p, MASK))];
};

const codeRewrite = (code: string): Rewrite | undefined => {
  const core = codeCore(code);
  if (core.length === 0) return undefined;
  return { needle: core.toLowerCase(), loose: true, source: () => codePattern(core), replacement: redact({ type: 'otp', value: code }) };
};

const compact = (text: string): string => text.replace(SEPARATORS, '').toLowerCase();

/** A stretch of a text that shows a secret, and what stands there instead. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/** Finds where a text shows any of a message's secrets; each span is shown as `redacted_value` would. */
export type SecretFinder = (text: string) => SecretSpan[];

const overlaps = (taken: readonly SecretSpan[], start: number, end: number): boolean => taken.some((s) => start < s.end && s.start < end);

/**
 * A finder for the given secrets. Links go first and win where spans overlap: a code inside a
 * link is hidden with it. A span is never empty.
 */
export const secretFinder = (secrets: readonly SecretValue[]): SecretFinder => {
  const usable = secrets.filter((s) => s.value.length > 0);
  const links = usable.filter((s) => s.type === 'magic_link').sort((a, b) => b.value.length - a.value.length);
  const codes = usable.filter((s) => s.type === 'otp').sort((a, b) => codeCore(b.value).length - codeCore(a.value).length);
  const rewrites: Rewrite[] = [...links.flatMap((l) => linkRewrites(l.value)), ...codes.flatMap((c) => codeRewrite(c.value) ?? [])];
  const compiled = new Map<Rewrite, RegExp>();
  return (text) => {
    const spans: SecretSpan[] = [];
    let squeezed: string | undefined;
    for (const rewrite of rewrites) {
      const present = rewrite.loose ? (squeezed ??= compact(text)).includes(rewrite.needle) : text.includes(rewrite.needle);
      if (!present) continue;
      let pattern = compiled.get(rewrite);
      if (pattern === undefined) compiled.set(rewrite, (pattern = rewrite.source()));
      for (const m of text.matchAll(pattern)) {
        const start = m.index;
        const end = start + m[0].length;
        if (end > start && !overlaps(spans, start, end)) spans.push({ start, end, replacement: rewrite.replacement });
      }
    }
    return spans.sort((a, b) => a.start - b.start);
  };
};

/** `text` with each (non-overlapping, sorted) span replaced. */
export const applySpans = (text: string, spans: readonly SecretSpan[]): string => {
  if (spans.length === 0) return text;
  let out = '';
  let last = 0;
  for (const span of spans) {
    out += text.slice(last, span.start) + span.replacement;
    last = span.end;
  }
  return out + text.slice(last);
};

/**
 * A function that hides every given secret in a plain text the way `redacted_value` shows it: a
 * code becomes `4•••3` wherever its letters and digits stand as a word, whatever separates them
 * (`482 913`, `482-913`, `482.913`, `QX7K-92MD` as `QX7K92MD`); a link becomes
 * `https://host/•••` in its own and its HTML-escaped spelling, and the token-like parts of a link
 * are masked wherever else they appear. For HTML, see `htmlSecretMasker`.
 */
export const secretMasker = (secrets: readonly SecretValue[]): ((text: string) => string) => {
  if (!secrets.some((s) => s.value.length > 0)) return (text) => text;
  const find = secretFinder(secrets);
  return (text) => applySpans(text, find(text));
};
