/** How a printed token looks, before any context is considered. */
export interface Shape {
  /** The code as a user would type it (digit groups joined, letter-group dashes kept). */
  readonly value: string;
  /** Prior log-odds that a token of this shape is a one-time code. */
  readonly prior: number;
  readonly kind: 'digits' | 'grouped' | 'alnum' | 'letters' | 'mixed' | 'hex';
}

const DATE_LIKE = /^(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-\d{2,4})$/;
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-/i;
const YEAR_LIKE = /^(?:19|20)\d{2}$/;
const NOT_DIGIT = /[^0-9]/g;
const GROUP = /^[A-Z0-9]{3,5}$/;
const CAPITAL = /[A-Z]/;
const DIGIT_GROUPS = /^[0-9][0-9 \t\u00a0-]*$/;

const digitPrior = (n: number): number => [0, 0, 0, 0, 0, 0.3, 1.2, 0.6, 0.9, -0.3, -0.3][n] ?? Number.NaN;

const digitsShape = (printed: string): Shape | undefined => {
  const value = printed.replace(NOT_DIGIT, '');
  const prior = digitPrior(value.length);
  if (Number.isNaN(prior) || value.length < 4) return undefined;
  return { value, prior: YEAR_LIKE.test(value) && value === printed ? -2.5 : prior, kind: 'digits' };
};

const groupedShape = (printed: string): Shape | undefined => {
  const groups = printed.split('-');
  const ok = groups.every((g) => GROUP.test(g)) && groups.length <= 4 && CAPITAL.test(printed);
  return ok ? { value: printed, prior: 1.2, kind: 'grouped' } : undefined;
};

// A dashed group that reads as a word: "Jean-Pierre", "ONE-time" are words, not a code's pieces.
const WORD_GROUP = /^[A-Z]?[a-z]+$/;

/**
 * Groups of one length joined by dashes that groupedShape does not admit (lower or mixed case,
 * hex: "zwRDr-gqDEF", "46b9-3d09-…"): the code they spell without the dashes, if it has a shape,
 * and no group is a word unless the whole is hex.
 */
const dashedShape = (printed: string): Shape | undefined => {
  const groups = printed.split('-');
  const size = groups[0]?.length ?? 0;
  if (size < 2 || groups.some((g, i) => g.length > size || (g.length < size && i < groups.length - 1))) return undefined;
  const compact = groups.join('');
  const shape = plainShape(compact, classesOf(compact));
  if (shape === undefined || shape.kind === 'hex') return shape;
  return groups.some((g) => WORD_GROUP.test(g)) ? undefined : shape;
};

/** Letter and digit counts of a token, counted in one pass (no regular expressions, no arrays). */
interface Classes {
  readonly digits: number;
  readonly upper: number;
  readonly lower: number;
}

const classesOf = (t: string): Classes => {
  let digits = 0;
  let upper = 0;
  let lower = 0;
  for (let i = 0; i < t.length; i += 1) {
    const c = t.charCodeAt(i);
    if (c >= 48 && c <= 57) digits += 1;
    else if (c >= 65 && c <= 90) upper += 1;
    else if (c >= 97 && c <= 122) lower += 1;
  }
  return { digits, upper, lower };
};

/**
 * The longest token (letters, digits and single joining dashes, as codeTokens reads them) that
 * any shape admits: hex tokens stop at 64 characters, other plain shapes at 32, grouped ones at
 * four groups of five, and ten digits joined by dashes make 19.
 */
export const LONGEST_CODE_TOKEN = 64;
const LONGEST_PLAIN = 32;
const SHORTEST_HEX = 16;
const HEX_LOWER = /^[0-9a-f]+$/;
const HEX_UPPER = /^[0-9A-F]+$/;

/**
 * A long hex token printed as a word ("confirm 0c463dd8…"): a secret the reader sends back or
 * types, when its context says so; on its own, most often a hash or an id (prior below zero).
 */
const hexShape = (t: string, { digits, upper, lower }: Classes): Shape | undefined => {
  if (t.length < SHORTEST_HEX || digits === 0 || upper + lower === 0 || (upper > 0 && lower > 0)) return undefined;
  return HEX_LOWER.test(t) || HEX_UPPER.test(t) ? { value: t, prior: -1, kind: 'hex' } : undefined;
};

/** How often the case changes from one letter to the next. */
const caseChanges = (t: string): number => {
  let changes = 0;
  for (let i = 1; i < t.length; i += 1) {
    const a = t.charCodeAt(i - 1) <= 90;
    const b = t.charCodeAt(i) <= 90;
    if (a !== b) changes += 1;
  }
  return changes;
};

const plainShape = (t: string, { digits, upper, lower }: Classes): Shape | undefined => {
  if (t.length > LONGEST_PLAIN) return hexShape(t, { digits, upper, lower });
  // No shape below admits a token outside 4..32 characters.
  if (t.length < 4) return undefined;
  if (lower === 0 && digits > 0 && upper > 0 && t.length <= 12) {
    return { value: t, prior: t.length >= 6 && t.length <= 8 ? 0.8 : 0.3, kind: 'alnum' };
  }
  if (lower === 0 && digits === 0 && t.length <= 10) return { value: t, prior: -1.8, kind: 'letters' };
  // Long mixed-case strings are codes only when they look random, not like a CamelCase word: a
  // word changes case two or three times ("JavaScript", "McDonalds"), a random string more often,
  // or it is mostly capitals ("FQWFdCJLCj").
  const random =
    (digits > 0 && upper > 0 && lower > 0) ||
    (upper >= 3 && lower >= 3 && t.length >= 10) ||
    (t.length >= 10 && upper >= 2 && lower >= 2 && (upper * 2 > t.length || caseChanges(t) >= 4));
  if (random && t.length >= 8) return { value: t, prior: -0.2, kind: 'mixed' };
  return hexShape(t, { digits, upper, lower });
};

/**
 * Classifies a printed token (letters, digits, dashes or single spaces between digit groups) as
 * a possible code, or rejects it: dates, UUID pieces, short numbers and plain words are never codes.
 */
export const shapeOf = (printed: string): Shape | undefined => {
  const classes = classesOf(printed);
  // Most tokens are words: with lower-case letters, no digit and under three capitals, no shape
  // below admits them, so they are refused before any pattern runs.
  if (classes.digits === 0 && classes.lower > 0 && classes.upper < 3) return undefined;
  if (DATE_LIKE.test(printed) || UUID_LIKE.test(printed)) return undefined;
  if (DIGIT_GROUPS.test(printed)) return digitsShape(printed);
  if (printed.includes('-')) return groupedShape(printed) ?? dashedShape(printed);
  return plainShape(printed, classes);
};
