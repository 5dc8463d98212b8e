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

/** A code as a whole word, its characters possibly split by one space, no-break space or hyphen. */
const codePattern = (code: string): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])${[...code].map(escapeRe).join('[ \\u00a0-]?')}(?![\\p{L}\\p{N}])`, 'giu');

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
 * spaces, no-break spaces and hyphens removed, lower-cased (how a split code is written).
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

const codeRewrite = (code: string, shown: string): Rewrite => ({ needle: code.toLowerCase(), loose: true, source: () => codePattern(code), replacement: shown });

const compact = (text: string): string => text.replace(/[ \u00a0-]/g, '').toLowerCase();

/**
 * A function that hides every given secret in a text the way `redacted_value` shows it: a code
 * becomes `4•••3` wherever it stands as a word (also as `482 913` or `482-913`), a link becomes
 * `https://host/•••` in its own and its HTML-escaped spelling, and the token-like parts of a
 * link are masked wherever else they appear. Links go first: a code inside a link is hidden with it.
 */
export const secretMasker = (secrets: readonly SecretValue[]): ((text: string) => string) => {
  const usable = secrets.filter((s) => s.value.length > 0);
  if (usable.length === 0) return (text) => text;
  const links = usable.filter((s) => s.type === 'magic_link').sort((a, b) => b.value.length - a.value.length);
  const codes = usable.filter((s) => s.type === 'otp').sort((a, b) => b.value.length - a.value.length);
  const rewrites: Rewrite[] = [...links.flatMap((l) => linkRewrites(l.value)), ...codes.map((c) => codeRewrite(c.value, redact(c)))];
  const compiled = new Map<Rewrite, RegExp>();
  return (text) => {
    let out = text;
    let squeezed: string | undefined;
    for (const rewrite of rewrites) {
      const present = rewrite.loose ? (squeezed ??= compact(out)).includes(rewrite.needle) : out.includes(rewrite.needle);
      if (!present) continue;
      let pattern = compiled.get(rewrite);
      if (pattern === undefined) compiled.set(rewrite, (pattern = rewrite.source()));
      out = out.replace(pattern, () => rewrite.replacement);
      squeezed = undefined;
    }
    return out;
  };
};
