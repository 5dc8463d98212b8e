import { confidences } from './calibration.js';
import { findCodes, type CodeSighting } from './codes.js';
import { findLinks } from './links.js';
import { otherTopic } from './mail-topic.js';
import { evidenceScore, scoreWith, type Model } from './model.js';
import { MODEL } from './model-weights.js';
import { matchesRules, ruleCodes, type ExtractionRules } from './rules.js';
import { viewMessage, type MessageView } from './segments.js';
import type { Candidate, Evidence, Extraction, LinkKind, ParsedMessage, SecretType } from './types.js';

/** A candidate before calibration: its score under the model, and its signals in `evidence.signals`. */
export interface ScoredCandidate {
  readonly type: SecretType;
  readonly value: string;
  readonly link_kind?: LinkKind;
  /** The model's score (log-odds, see model.ts). */
  readonly score: number;
  /** The hand-scaled sum of the signals, by which candidates are found and pruned. */
  readonly handScore: number;
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
  readonly type: SecretType;
  readonly value: string;
  /** The hand-scaled sum of the signals: finds and prunes candidates. */
  readonly score: number;
  /** The score under the model, set when the message's candidates are ranked (`modelled`). */
  modelScore: number;
  readonly signals: Record<string, number>;
  /** A link as it is read: the destination a click tracker wraps, else the link itself. */
  readonly url?: string;
  readonly build: (score: number, signals: Record<string, number>) => Omit<ScoredCandidate, 'handScore'>;
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
      type: 'otp' as const,
      value,
      score: best.score + bonus,
      modelScore: 0,
      signals: bonus > 0 ? { ...best.signals, several_parts: bonus } : best.signals,
      build: (score, signals) => ({ type: 'otp', value, score, evidence: { sources, snippet: best.snippet(), signals, ...printed } }),
    };
  });
};

const linkCandidates = (view: MessageView): Ranked[] =>
  findLinks(view).map((l) => ({
    type: 'magic_link' as const,
    value: l.value,
    score: l.score,
    modelScore: 0,
    signals: l.signals,
    url: l.unwrapped ?? l.value,
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
    type: 'otp' as const,
    value: m.value,
    score: RULE_SCORE - i,
    modelScore: 0,
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
// The signal links.ts gives a long random token, and the shortest value that can be one alone.
const STRONG_TOKEN = 2.5;
const OWN_TOKEN_LENGTH = 12;
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
    if (!many || DELIMITER.test(value)) return live.some((l) => holds(l.url ?? l.value, value));
    if (pieces === undefined) {
      pieces = new Set();
      for (const l of live) heldPieces(l.url ?? l.value, pieces);
    }
    return pieces.has(value);
  };
  // A link with a long random token of its own besides the code (the code is too short to be
  // that token) is a magic link in its own right: the code beside it is the second way in.
  const ownToken = (value: string): boolean => value.length < OWN_TOKEN_LENGTH && live.some((l) => l.signals.token === STRONG_TOKEN && holds(l.url ?? l.value, value));
  return codes.map((c) =>
    c.signals.parenthetical === undefined && live.length > 0 && carried(c.value) && !ownToken(c.value)
      ? { ...c, score: c.score + LINK_CARRIES_CODE, signals: { ...c.signals, link_carries_code: LINK_CARRIES_CODE } }
      : c,
  );
};

// The same fact seen from the link: a link that only carries a code the text shows is the second way in.
const CARRIES_SHOWN_CODE = -1;

/** Links that carry a code the text shows (one `preferShownCodes` marked), with that signal. */
const markCarriers = (codes: readonly Ranked[], links: Ranked[]): Ranked[] => {
  const shown = codes.filter((c) => c.signals.link_carries_code !== undefined);
  if (shown.length === 0) return links;
  return links.map((l) =>
    shown.some((c) => holds(l.url ?? l.value, c.value))
      ? { ...l, score: l.score + CARRIES_SHOWN_CODE, signals: { ...l.signals, carries_shown_code: CARRIES_SHOWN_CODE } }
      : l,
  );
};

/** Every candidate of a message, codes first, in no particular order. */
const rank = (message: ParsedMessage, rules: ExtractionRules): Ranked[] => {
  const view = viewMessage(message);
  const type = rules.extraction_type ?? 'auto';
  const codes =
    type === 'magic_link' ? [] : rules.code_pattern !== undefined ? ruleCandidates(view, rules.code_pattern) : mergeCodes(findCodes(view));
  const links = type === 'otp' ? [] : linkCandidates(view);
  const preferred = preferShownCodes(codes, links);
  // Ranked once, by the model (`modelled`); the hand scores only find and prune candidates.
  return onTopic(view, [...preferred, ...markCarriers(preferred, links)]);
};

/** The candidates with the mail-level signal `other_topic` (mail-topic.ts) when the mail has it. */
const onTopic = (view: MessageView, ranked: Ranked[]): Ranked[] => {
  if (ranked.length === 0) return ranked;
  const topic = otherTopic(view);
  if (topic === 0) return ranked;
  return ranked.map((r) => ({ ...r, score: r.score + topic, signals: { ...r.signals, other_topic: topic } }));
};

/**
 * The message's candidates scored by `model` (into their `modelScore`), best first; ties keep
 * codes first, then the order they were found in. Sorted in place: no object per candidate.
 */
const modelled = (model: Model, ranked: Ranked[]): Ranked[] => {
  for (const r of ranked) r.modelScore = scoreWith(model, r.type, r.signals);
  // Most messages have one or two candidates: no sort to call.
  return ranked.length < 2 ? ranked : ranked.sort((a, b) => b.modelScore - a.modelScore);
};

/**
 * Every candidate of a message with its score, best first, before calibration. Exposed for
 * fitting the model (its signals are the features); callers want `extract`.
 */
export const scoreCandidates = (message: ParsedMessage, rules: ExtractionRules = {}, model: Model = MODEL): ScoredCandidate[] =>
  modelled(model, rank(message, rules)).map((c) => ({ ...c.build(c.modelScore, c.signals), handScore: c.score }));

/**
 * `extract` under another model than the committed one: the benchmark's leave-one-product-out
 * folds run the engine with the model fitted without the product they hold out.
 */
export const extractWith =
  (model: Model) =>
  (message: ParsedMessage, rules?: ExtractionRules): Extraction => {
    if (rules !== undefined && !matchesRules(message, rules)) return { top: undefined, candidates: [], ruleMismatch: true };
    const ranked = modelled(model, rank(message, rules ?? {}));
    // Ranked by the whole score; each one's confidence read from its evidence (model.ts).
    const probs = confidences(ranked.map((c) => evidenceScore(model, c.type, c.signals)), model.calibration);
    const candidates: Candidate[] = [];
    for (let i = 0; i < ranked.length && candidates.length < MAX_CANDIDATES; i += 1) {
      const confidence = Math.round((probs[i] ?? 0) * 1000) / 1000;
      const r = ranked[i];
      if (r === undefined || confidence < MIN_CONFIDENCE) continue;
      const c = r.build(r.modelScore, r.signals);
      candidates.push({ type: c.type, value: c.value, ...(c.link_kind !== undefined ? { link_kind: c.link_kind } : {}), confidence, evidence: c.evidence });
    }
    return { top: candidates[0], candidates, ruleMismatch: false };
  };

/**
 * Finds the one-time code or magic link a message carries. Pure and synchronous. Returns up to
 * five candidates, best first, each with a calibrated confidence; when rules are given and the
 * message does not match their sender or subject pattern, it returns no candidate at all.
 */
export const extract: (message: ParsedMessage, rules?: ExtractionRules) => Extraction = extractWith(MODEL);
