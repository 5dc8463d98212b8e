import { CALIBRATION, confidences } from './calibration.js';
import { findCodes, type CodeSighting } from './codes.js';
import { findLinks } from './links.js';
import { matchesRules, ruleCodes, type ExtractionRules } from './rules.js';
import { viewMessage, type MessageView } from './segments.js';
import type { Candidate, Evidence, Extraction, LinkKind, ParsedMessage, SecretType } from './types.js';

/** A candidate before calibration: the raw score is a sum of log-odds signals. */
export interface ScoredCandidate {
  readonly type: SecretType;
  readonly value: string;
  readonly link_kind?: LinkKind;
  readonly score: number;
  readonly evidence: Evidence;
}

const MAX_CANDIDATES = 5;
// Below this a candidate is noise; keeping it would only leak runner-up values into payloads.
const MIN_CONFIDENCE = 0.01;
// A rule's code is what the identity's owner said a code looks like: trusted far above heuristics.
const RULE_SCORE = 6;

/**
 * A candidate as ranked: its score and signals, and how to build what is reported about it.
 * Snippets and link kinds are built only for candidates that are reported: most candidates of a
 * message score too low to be, and building theirs was a measurable share of the engine's work.
 */
interface Ranked {
  readonly value: string;
  readonly score: number;
  readonly signals: Record<string, number>;
  readonly build: (score: number, signals: Record<string, number>) => ScoredCandidate;
}

/** Merges sightings of the same code; seeing it in several parts (subject and body) is a signal. */
const mergeCodes = (sightings: readonly CodeSighting[]): Ranked[] => {
  const byValue = new Map<string, CodeSighting[]>();
  for (const s of sightings) {
    const same = byValue.get(s.value);
    if (same === undefined) byValue.set(s.value, [s]);
    else same.push(s);
  }
  return [...byValue.entries()].map(([value, all]) => {
    const best = all.reduce((a, b) => (b.score > a.score ? b : a));
    const sources = [...new Set(all.map((s) => s.source))];
    const bonus = 0.4 * Math.min(2, sources.length - 1);
    const printed = best.printed !== value ? { printed: best.printed } : {};
    return {
      value,
      score: best.score + bonus,
      signals: bonus > 0 ? { ...best.signals, several_parts: bonus } : best.signals,
      build: (score, signals) => ({ type: 'otp', value, score, evidence: { sources, snippet: best.snippet(), signals, ...printed } }),
    };
  });
};

const linkCandidates = (view: MessageView): Ranked[] =>
  findLinks(view).map((l) => ({
    value: l.value,
    score: l.score,
    signals: l.signals,
    build: (score, signals) => {
      const { kind, snippet } = l.describe();
      const evidence = {
        sources: l.sources,
        snippet,
        signals,
        ...(l.anchorText !== undefined ? { anchorText: l.anchorText } : {}),
        ...(l.unwrapped !== undefined ? { unwrapped: l.unwrapped } : {}),
      };
      return { type: 'magic_link', value: l.value, link_kind: kind, score, evidence };
    },
  }));

const ruleCandidates = (view: MessageView, pattern: string): Ranked[] =>
  ruleCodes(pattern, view.segments.map((s) => s.text)).map((m, i) => ({
    value: m.value,
    score: RULE_SCORE - i,
    signals: { rule: RULE_SCORE - i },
    build: (score, signals) => ({ type: 'otp', value: m.value, score, evidence: { sources: [], snippet: m.snippet, signals, rule: true } }),
  }));

// When a link only carries the code the text already shows ("enter 123456, or click here"), the
// code is what the message leads with; a parenthetical "(Code 123456)" next to a button is not.
const LINK_CARRIES_CODE = 1.2;

/** True when `url` holds `value` as a whole path segment or parameter value (after `=` or `/`, before `&`, `#`, `/` or the end). */
export const holds = (url: string, value: string): boolean => {
  for (let at = url.indexOf(value, 1); at >= 0; at = url.indexOf(value, at + 1)) {
    const before = url[at - 1];
    const after = url[at + value.length];
    if ((before === '=' || before === '/') && (after === undefined || after === '&' || after === '#' || after === '/')) return true;
  }
  return false;
};

const DELIMITER = /[=/&#]/;
const MANY_PAIRS = 64;

/**
 * The values `holds` finds in `url` that hold none of `=/&#`: each run of other characters that
 * follows '=' or '/' and ends at '&', '#', '/' or the end. Such a value is held exactly when it
 * is one of these runs, so a message's codes are looked up in one set instead of each being
 * searched for in every link (thousands of codes beside hundreds of links cost a tenth of a second).
 */
export const heldPieces = (url: string, into: Set<string>): void => {
  let from = 0;
  for (let i = 0; i <= url.length; i += 1) {
    const c = i < url.length ? url.charCodeAt(i) : -1;
    if (c !== -1 && c !== 61 && c !== 47 && c !== 38 && c !== 35) continue;
    const before = url.charCodeAt(from - 1);
    if (i > from && from > 0 && (before === 61 || before === 47) && c !== 61) into.add(url.slice(from, i));
    from = i + 1;
  }
};

// Compared as plain text: building a pattern from each code compiled a new regular expression
// per message (and read a rule's code, which may hold any character, as a pattern).
const preferShownCodes = (codes: Ranked[], links: readonly Ranked[]): Ranked[] => {
  if (codes.length === 0 || links.length === 0) return codes;
  const live = links.filter((l) => l.score > -1);
  // A few codes and links (most mail) are compared directly; the set pays off past that.
  const many = codes.length * live.length > MANY_PAIRS;
  let pieces: Set<string> | undefined;
  const carried = (value: string): boolean => {
    if (!many || DELIMITER.test(value)) return live.some((l) => holds(l.value, value));
    if (pieces === undefined) {
      pieces = new Set();
      for (const l of live) heldPieces(l.value, pieces);
    }
    return pieces.has(value);
  };
  return codes.map((c) =>
    c.signals.parenthetical === undefined && live.length > 0 && carried(c.value)
      ? { ...c, score: c.score + LINK_CARRIES_CODE, signals: { ...c.signals, link_carries_code: LINK_CARRIES_CODE } }
      : c,
  );
};

/** Every candidate of a message, ranked by raw score, best first. */
const rank = (message: ParsedMessage, rules: ExtractionRules): Ranked[] => {
  const view = viewMessage(message);
  const type = rules.extraction_type ?? 'auto';
  const codes =
    type === 'magic_link' ? [] : rules.code_pattern !== undefined ? ruleCandidates(view, rules.code_pattern) : mergeCodes(findCodes(view));
  const links = type === 'otp' ? [] : linkCandidates(view);
  return [...preferShownCodes(codes, links), ...links].sort((a, b) => b.score - a.score);
};

/**
 * Every candidate of a message with its raw score, best first, before calibration. Exposed for
 * fitting the calibration; callers want `extract`.
 */
export const scoreCandidates = (message: ParsedMessage, rules: ExtractionRules = {}): ScoredCandidate[] =>
  rank(message, rules).map((c) => c.build(c.score, c.signals));

/**
 * Finds the one-time code or magic link a message carries. Pure and synchronous. Returns up to
 * five candidates, best first, each with a calibrated confidence; when rules are given and the
 * message does not match their sender or subject pattern, it returns no candidate at all.
 */
export const extract = (message: ParsedMessage, rules?: ExtractionRules): Extraction => {
  if (rules !== undefined && !matchesRules(message, rules)) return { top: undefined, candidates: [], ruleMismatch: true };
  const ranked = rank(message, rules ?? {});
  const probs = confidences(ranked.map((c) => c.score), CALIBRATION);
  const candidates: Candidate[] = [];
  for (let i = 0; i < ranked.length && candidates.length < MAX_CANDIDATES; i += 1) {
    const confidence = Math.round((probs[i] ?? 0) * 1000) / 1000;
    const r = ranked[i];
    if (r === undefined || confidence < MIN_CONFIDENCE) continue;
    const c = r.build(r.score, r.signals);
    candidates.push({ type: c.type, value: c.value, ...(c.link_kind !== undefined ? { link_kind: c.link_kind } : {}), confidence, evidence: c.evidence });
  }
  return { top: candidates[0], candidates, ruleMismatch: false };
};
