import { opensAsAlternative } from './alternative.js';
import { shapeOf } from './code-shape.js';
import { eachMatch } from './each-match.js';
import { roleIn } from './link-role.js';
import { maskLinksAndAddresses } from './mask.js';
import { COMMERCE_WORDS, TIME_WORDS, compileWords } from './lexicon.js';
import { firstAtOrAfter, type Hits, type MessageView, type Segment, type Source } from './segments.js';
import { spacedCodes } from './split-codes.js';
import { codeTokens } from './tokens.js';
import { isTrimmed } from './whitespace.js';

/** A code seen once in one segment, with the signals its surroundings give. */
export interface CodeSighting {
  readonly value: string;
  readonly printed: string;
  readonly source: Source;
  readonly start: number;
  readonly score: number;
  readonly signals: Record<string, number>;
  /** Up to 60 characters either side, blanks folded; built only for a code that is reported. */
  readonly snippet: () => string;
}

// Digit groups split by one space; one digit per cell (tokens are read by codeTokens).
// Groups of one length only ("123 456", "12 34 56"): "2024 12" is a date and time, not a code.
export const SPLIT_RE = /\d(?<![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff+][\s\S])(?:\d{2}(?:[ \u00a0]\d{3}){1,2}|\d{3}[ \u00a0]\d{4}|\d(?:[ \u00a0]\d{2}){2,3})(?![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff]|[.,:]\d)/g;
export const CELLS_RE = /\d(?<![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff+][\s\S])(?:[ \t\u00a0]{1,3}\d){3,9}(?![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff]|[.,:]\d)/g;
const ORIGIN_RE = /^@([a-z0-9.-]+\.[a-z]{2,}) #([A-Za-z0-9-]{4,12})[ \t]*$/gm;
const PHONE_RE = /\+\d{1,3}[\d \u00a0().-]{5,}\d|\(\d{3}\)[ \u00a0]?\d{3}-\d{4}/g;
const TIME_AFTER = compileWords(TIME_WORDS, 'iy');
const COMMERCE = compileWords(COMMERCE_WORDS, 'i');
// How far before a code a commerce word is looked for: "License key: " is 13 characters.
const COMMERCE_WINDOW = 24;
const BASE = -3;
// How far before a hex token a word asking to confirm is looked for.
const ACTION_WINDOW = 24;


/** End of the last hit that starts at or after `from` and ends by `pos` (before which it starts), if any. */
export const lastBefore = (hits: Hits, pos: number, from: number): number | undefined => {
  // The last hit starting before pos; if it runs past pos, the one before it ends by its start.
  let i = firstAtOrAfter(hits, pos) - 1;
  if ((hits[i]?.[1] ?? 0) > pos) i -= 1;
  const hit = hits[i];
  return hit !== undefined && hit[0] >= from ? hit[1] : undefined;
};

/** Start of the first hit that starts in `[pos, to)`, if any. */
export const firstAfter = (hits: Hits, pos: number, to: number): number | undefined => {
  const s = hits[firstAtOrAfter(hits, pos)]?.[0];
  return s !== undefined && s < to ? s : undefined;
};

// The character tests of `glued` and `contextSignals`, compiled once: a pattern literal in a
// function builds a new pattern object each time it runs, for every token.
const GLUE_BEFORE = /[./@_%=&?+$€£¥\\]/;
const GLUE_AFTER = /[@_%=&/\\$€£¥]/;
const DIGIT = /[0-9]/;
const STOP = /[.,:]/;
const ALNUM = /[0-9A-Za-z]/;
const LETTER = /[A-Za-z\u00c0-\u024f\u0400-\u04ff]/;
const OPENS = /[(（[【][^)）\]】]{0,14}$/;
const CLOSES = /^\s?[)）\]】]/;

/** True when a character next to a token makes it part of something larger (URL, date, amount). */
const glued = (text: string, start: number, end: number): boolean => {
  const prev = text[start - 1] ?? ' ';
  const next = text[end] ?? ' ';
  const after = text[end + 1] ?? ' ';
  if (GLUE_BEFORE.test(prev) || GLUE_AFTER.test(next)) return true;
  if (prev === ':' && DIGIT.test(text[start - 2] ?? '')) return true;
  if (STOP.test(next) && ALNUM.test(after)) return true;
  return LETTER.test(prev + next);
};

const previousLineHasWord = (seg: Segment, lineStart: number, lines: number): boolean => {
  let end = lineStart - 1;
  for (let seen = 0; end > 0 && seen < lines; ) {
    const start = seg.text.lastIndexOf('\n', end - 1) + 1;
    if (seg.text.slice(start, end).trim().length > 0) {
      // A hit within the line: the first one starting in it ends first.
      const hits = seg.codeWords(end);
      if ((hits[firstAtOrAfter(hits, start)]?.[1] ?? Number.POSITIVE_INFINITY) <= end) return true;
      seen += 1;
    }
    end = start - 1;
  }
  return false;
};

/** The last non-blank line before the line starting at `lineStart`, or ''. */
const lineAbove = (text: string, lineStart: number): string => {
  let end = lineStart - 1;
  while (end > 0 && isTrimmed(text.charCodeAt(end - 1))) end -= 1;
  return end <= 0 ? '' : text.slice(text.lastIndexOf('\n', end - 1) + 1, end);
};

// How far from a code its line is read: the furthest any signal looks before it (a code word up
// to 100 characters back) and after it (a code word up to 30 characters on). Reading the whole
// line for every code made a long line of codes quadratic (a 99,000-character line of them took
// a third of a second).
const LOOK_BACK = 100;
const LOOK_AHEAD = 30;

/** Where the line holding `start` starts, or `start - within` when it starts further back. */
const lineStartWithin = (text: string, start: number, within: number): number => {
  const from = Math.max(0, start - within);
  let at = start;
  while (at > from && text.charCodeAt(at - 1) !== 10) at -= 1;
  return at;
};

/** Where the line holding `end` ends, or `end + within` (the text's end at most) when it ends further on. */
const lineEndWithin = (text: string, end: number, within: number): number => {
  const to = Math.min(text.length, end + within);
  let at = end;
  while (at < to && text.charCodeAt(at) !== 10) at += 1;
  return at;
};

/**
 * Where the line of the code at `[start, end)` starts when the code is alone on it, else -1.
 * Alone: the line, trimmed and without one final '.' or ':', is exactly `printed`. Read outwards
 * from the code over blanks only, so a long line costs no more than a short one.
 */
export const aloneOnLine = (text: string, start: number, end: number, printed: string): number => {
  if (end - start !== printed.length || !text.startsWith(printed, start)) return -1;
  let i = end;
  if (text.charCodeAt(i) === 46 || text.charCodeAt(i) === 58) i += 1;
  while (i < text.length && text.charCodeAt(i) !== 10 && isTrimmed(text.charCodeAt(i))) i += 1;
  if (i < text.length && text.charCodeAt(i) !== 10) return -1;
  let j = start - 1;
  while (j >= 0 && text.charCodeAt(j) !== 10 && isTrimmed(text.charCodeAt(j))) j -= 1;
  return j < 0 || text.charCodeAt(j) === 10 ? j + 1 : -1;
};

/**
 * True when the code ends its line and follows a label and a colon on it ("Activation code:
 * AsaHp3wqwk"): the "label: value" layout mail uses to set a secret apart, whatever the label's
 * language.
 */
export const labelled = (text: string, start: number, end: number): boolean => {
  let i = end;
  if (text.charCodeAt(i) === 46) i += 1;
  while (i < text.length && text.charCodeAt(i) !== 10 && isTrimmed(text.charCodeAt(i))) i += 1;
  if (i < text.length && text.charCodeAt(i) !== 10) return false;
  let j = start - 1;
  while (j >= 0 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 160 || text.charCodeAt(j) === 9)) j -= 1;
  const colon = text.charCodeAt(j);
  if (j < 1 || (colon !== 58 && colon !== 0xff1a)) return false;
  const before = text.charCodeAt(j - 1);
  return before !== 10 && !isTrimmed(before);
};

/**
 * True when the token at `[start, end)` ends its line and one word alone comes before it there
 * ("confirm 0c463dd8…", "  bestätigen 0c463dd8…"): a command line the reader sends back.
 */
const commandLine = (text: string, start: number, end: number): boolean => {
  let i = end;
  while (i < text.length && text.charCodeAt(i) !== 10 && isTrimmed(text.charCodeAt(i))) i += 1;
  if (i < text.length && text.charCodeAt(i) !== 10) return false;
  const before = text.slice(text.lastIndexOf('\n', start - 1) + 1, start).trim();
  return before !== '' && !/\s/.test(before);
};

/** Scores one sighting from its context; each signal is a log-odds contribution. */
const contextSignals = (sig: Record<string, number>, seg: Segment, start: number, end: number, printed: string, digits: boolean): void => {
  const text = seg.text;
  // The line around the code is read only as far as a signal looks (see LOOK_BACK).
  const ls = lineStartWithin(text, start, LOOK_BACK);
  const kw = lastBefore(seg.codeWords(start), start, ls);
  if (kw !== undefined) sig.keyword_before = start - kw <= 40 ? 2.5 : 1.5;
  const lineStart = aloneOnLine(text, start, end, printed);
  const alone = lineStart >= 0;
  if (alone) sig.alone_on_line = 1.5;
  if (alone && kw === undefined) {
    if (previousLineHasWord(seg, lineStart, 1)) sig.keyword_line_above = 2;
    else if (previousLineHasWord(seg, lineStart, 2)) sig.keyword_line_above = 1.2;
  }
  const after = lineEndWithin(text, end, LOOK_AHEAD);
  if (firstAfter(seg.codeWords(after), end, after) !== undefined) sig.keyword_after = 1.8;
  const near = Math.max(ls, start - 20);
  const decoy = lastBefore(seg.decoyWords(near, start), start, near);
  if (decoy !== undefined && (kw === undefined || decoy >= kw)) sig.decoy_word = -4;
  // A plain number is looked at only when a code word vouches for it ("coupon code 4471"): most
  // numbers (street numbers, references) are not, and the test is then not worth its cost.
  else if ((kw !== undefined || !digits) && COMMERCE.test(text.slice(Math.max(ls, start - COMMERCE_WINDOW), start))) sig.decoy_word = -4;
  if (labelled(text, start, end)) sig.labelled = 1;
  TIME_AFTER.lastIndex = text[end] === ' ' || text[end] === '\u00a0' ? end + 1 : end;
  if (TIME_AFTER.test(text)) sig.duration = -5;
  if (text[start - 1] === '#' && kw === undefined) sig.hash_prefix = -1.5;
  if (OPENS.test(text.slice(Math.max(ls, start - 15), start)) && CLOSES.test(text.slice(end, end + 3))) {
    sig.parenthetical = -1.2;
  }
  if (start >= seg.footerAt) sig.footer = -1.5;
  // "Or enter this code: …", or that line above a code alone on its own: the second way in (a preference signal).
  if (opensAsAlternative(text.slice(ls, start)) || (alone && opensAsAlternative(lineAbove(text, lineStart)))) sig.alternative = -1;
};

/**
 * One sighting, its signals in a fixed order (base, shape, context, `extra`, then the subject's),
 * added up in that order. Written into one object: spreading the context's signals into the
 * sighting's, and copying every sighting again to add the subject's, built three objects each.
 */
const sighting = (seg: Segment, start: number, printed: string, subject: number, extra?: Record<string, number>, shape = shapeOf(printed)): CodeSighting | undefined => {
  // subject: > 0 when the subject speaks of a code, < 0 when it is silent (see MessageView.subjectSilent).
  if (!shape) return undefined;
  const signals: Record<string, number> = { base: BASE, shape: shape.prior };
  contextSignals(signals, seg, start, start + printed.length, printed, shape.kind === 'digits');
  // "confirm 0c463dd8…": a word asking to confirm or verify just before a long token names it
  // (read only for hex tokens, which no code word usually introduces).
  if (shape.kind === 'hex' && roleIn(seg.text.slice(Math.max(0, start - ACTION_WINDOW), start)) === 'positive') {
    signals.action_before = 1.5;
    // A line holding that word and the token only ("    confirm 0c463dd8…") is a command to send
    // back as it stands: set apart as a code alone on its line is, and named by its word as a
    // labelled one ("Code: …") is.
    if (signals.alone_on_line === undefined && commandLine(seg.text, start, start + printed.length)) {
      signals.alone_on_line = 1.5;
      signals.labelled = 1;
    }
  }
  if (extra !== undefined) for (const k in extra) signals[k] = extra[k] ?? 0;
  if (subject > 0) signals.subject_says_code = subject;
  else if (subject < 0) signals.subject_silent = subject;
  let score = 0;
  for (const k in signals) score += signals[k] ?? 0;
  const snippet = (): string => seg.text.slice(Math.max(0, start - 60), start + printed.length + 60).replace(/\s+/g, ' ');
  return { value: shape.value, printed, source: seg.source, start, score, signals, snippet };
};

/**
 * Spans of a segment that no code may lie inside (phone numbers, digit groups already read). For
 * each character, the furthest end of a span over it: whether a span holds `[s, e)` is then one
 * look-up. Looking through every span for every token made a text of thousands of digit groups
 * quadratic (a 99,000-character one took over a second). Only a segment with a span pays for the
 * array.
 */
export class Covered {
  private reach: Int32Array | undefined;

  constructor(private readonly length: number) {}

  add(start: number, end: number): void {
    const reach = (this.reach ??= new Int32Array(this.length));
    for (let i = start; i < end; i += 1) if ((reach[i] ?? 0) < end) reach[i] = end;
  }

  holds(start: number, end: number): boolean {
    return this.reach !== undefined && (this.reach[start] ?? 0) >= end;
  }
}

/**
 * Finds every plausible code sighting in one segment. Each pattern below needs a character most
 * segments lack ('@' for origin lines, '+' or '(' for phone numbers): without it, the pattern
 * cannot match and its scan is skipped.
 */
const scanSegment = (seg: Segment, subject: number): CodeSighting[] => {
  // URLs and addresses are blanked (same length, offsets kept) before scanning: their pieces are
  // never codes, and long tokenised URLs were most of the scanning cost.
  const text = maskLinksAndAddresses(seg.text);
  const out: CodeSighting[] = [];
  // Phone numbers, then digit groups as they are read: a code inside either is not read again.
  const covered = new Covered(text.length);
  if (text.includes('+') || text.includes('(')) eachMatch(PHONE_RE, text, (m) => covered.add(m.index, m.index + m[0].length));
  if (text.includes('@')) {
    eachMatch(ORIGIN_RE, text, (m) => {
      const code = m[2] ?? '';
      const s = sighting(seg, m.index + m[0].indexOf('#') + 1, code, subject, { origin_bound: 6 });
      if (s) out.push(s);
    });
  }
  for (const re of [CELLS_RE, SPLIT_RE]) {
    eachMatch(re, text, (m) => {
      if (covered.holds(m.index, m.index + m[0].length)) return;
      covered.add(m.index, m.index + m[0].length);
      const s = sighting(seg, m.index, m[0], subject, { split: -0.3 });
      if (s) out.push(s);
    });
  }
  // Groups split by blanks that spell a code ("SRK ZPW", "S R K Z P W"); their pieces are still
  // read as tokens below, since a run may join a code to a word beside it.
  spacedCodes(text, (s, e, shape) => {
    if (covered.holds(s, e) || glued(text, s, e)) return;
    const found = sighting(seg, s, text.slice(s, e), subject, { split: -0.3 }, shape);
    if (found) out.push(found);
  });
  codeTokens(text, (s, e) => {
    const token = text.slice(s, e);
    const printed = token.includes('\u2010') || token.includes('\u2011') ? token.replace(/[\u2010\u2011]/g, '-') : token;
    // The shape is the cheapest test and refuses most tokens (plain words), so it comes first.
    const shape = shapeOf(printed);
    if (!shape || glued(text, s, e) || covered.holds(s, e)) return;
    const found = sighting(seg, s, printed, subject, undefined, shape);
    if (found) out.push(found);
  });
  return out;
};

// A subject that speaks of a code ("Your login code") says the mail's secret is a code; one that
// names neither a code nor a link's purpose is most often a notice.
const SUBJECT_SAYS_CODE = 0.6;
const SUBJECT_SILENT = -1;

/** All code sightings of a message, in every segment. */
export const findCodes = (view: MessageView): CodeSighting[] => {
  const subject = view.segments.find((s) => s.source === 'subject');
  const says = subject !== undefined && subject.codeWords(0).length > 0 ? SUBJECT_SAYS_CODE : view.subjectSilent() ? SUBJECT_SILENT : 0;
  return view.segments.flatMap((seg) => scanSegment(seg, says));
};
