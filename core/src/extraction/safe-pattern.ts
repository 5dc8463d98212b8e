import { Script, createContext } from 'node:vm';

/**
 * Regular expressions written by template authors and filled with callers' parameters. They run
 * on every message an identity receives, so a pattern that backtracks without end would stall the
 * mail thread: a pattern is checked before it is accepted ({@link checkPattern}) and every run is
 * cut off after {@link PATTERN_BUDGET_MS} ({@link matchBounded}).
 */

/** Longest pattern accepted, in UTF-16 code units. */
export const MAX_PATTERN_LENGTH = 500;

/** How long one run of a pattern over one message may take before it is abandoned. */
export const PATTERN_BUDGET_MS = 25;

/** A repetition count above this is treated as unbounded when judging nesting. */
const LARGE_REPEAT = 32;

export type PatternVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

interface Group {
  /** A quantifier with no small upper bound applies to something inside the group. */
  unbounded: boolean;
  /** The group holds a `|` at its own level or in a nested group. */
  alternation: boolean;
}

/** The length of the quantifier at `i` and whether it repeats without a small bound; 0 when none. */
const quantifierAt = (source: string, i: number): { length: number; unbounded: boolean } => {
  const c = source[i];
  if (c === '*' || c === '+') return { length: source[i + 1] === '?' ? 2 : 1, unbounded: true };
  if (c === '?') return { length: source[i + 1] === '?' ? 2 : 1, unbounded: false };
  if (c !== '{') return { length: 0, unbounded: false };
  const m = /^\{(\d+)(,(\d*))?\}\??/.exec(source.slice(i));
  if (m === null) return { length: 0, unbounded: false };
  const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
  return { length: m[0].length, unbounded: max > LARGE_REPEAT };
};

/** Index just past the character class that opens at `i` (`[` … `]`, escapes honoured). */
const classEnd = (source: string, i: number): number => {
  let j = i + 1;
  if (source[j] === '^') j += 1;
  if (source[j] === ']') j += 1;
  for (; j < source.length; j += 1) {
    if (source[j] === '\\') j += 1;
    else if (source[j] === ']') return j + 1;
  }
  return source.length;
};

/**
 * Refuses what makes a backtracking engine take exponential time: a repeated group that holds
 * another unbounded repetition (`(a+)+`) or an alternation (`(a|aa)*`), and back-references
 * (`\1`, `\k<name>`), whose cost no static check bounds. Conservative: some harmless patterns
 * are refused too, and their authors rewrite them without the nesting.
 */
const nestingVerdict = (source: string): PatternVerdict => {
  const stack: Group[] = [{ unbounded: false, alternation: false }];
  // What the last atom was: a group just closed (with its contents), or a plain atom.
  let last: Group | 'atom' | undefined;
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    if (c === '\\') {
      if (/^\\([1-9]|k<)/.test(source.slice(i, i + 3))) return { ok: false, reason: 'back-references are not allowed' };
      last = 'atom';
      i += 2;
    } else if (c === '[') {
      last = 'atom';
      i = classEnd(source, i);
    } else if (c === '(') {
      stack.push({ unbounded: false, alternation: false });
      last = undefined;
      i += source[i + 1] === '?' ? (source[i + 2] === '<' && !'=!'.includes(source[i + 3] ?? '') ? source.indexOf('>', i) + 1 : 3) : 1;
    } else if (c === ')') {
      const closed = stack.pop()!;
      if (stack.length === 0) return { ok: false, reason: 'unbalanced parenthesis' };
      const parent = stack[stack.length - 1]!;
      parent.unbounded ||= closed.unbounded;
      parent.alternation ||= closed.alternation;
      last = closed;
      i += 1;
    } else if (c === '|') {
      stack[stack.length - 1]!.alternation = true;
      last = undefined;
      i += 1;
    } else {
      const q = quantifierAt(source, i);
      if (q.length === 0) {
        last = 'atom';
        i += 1;
        continue;
      }
      if (q.unbounded && last !== undefined && last !== 'atom') {
        if (last.unbounded) return { ok: false, reason: 'a repeated group may not hold another unbounded repetition (nested quantifiers)' };
        if (last.alternation) return { ok: false, reason: 'a group with alternatives may not be repeated without a bound' };
      }
      if (q.unbounded) stack[stack.length - 1]!.unbounded = true;
      last = undefined;
      i += q.length;
    }
  }
  return stack.length === 1 ? { ok: true } : { ok: false, reason: 'unbalanced parenthesis' };
};

/** Whether `source` is a pattern this service runs: valid, short, and free of catastrophic shapes. */
export const checkPattern = (source: string): PatternVerdict => {
  if (source.length === 0) return { ok: false, reason: 'must not be empty' };
  if (source.length > MAX_PATTERN_LENGTH) return { ok: false, reason: `must be at most ${MAX_PATTERN_LENGTH} characters` };
  try {
    new RegExp(source, 'u');
  } catch (error) {
    return { ok: false, reason: `is not a valid regular expression (${(error as Error).message})` };
  }
  return nestingVerdict(source);
};

/** One match of a bounded run: the whole match, its first group, and where it starts. */
export interface PatternMatch {
  readonly match: string;
  readonly group: string | undefined;
  readonly index: number;
}

// One context for every run: creating one costs about a millisecond, a run in it tens of µs.
const context = createContext({ source: '', flags: '', texts: [] as string[], max: 0 });
const runner = new Script(`(() => {
  const re = new RegExp(source, flags);
  return texts.map((text) => {
    const found = [];
    for (const m of text.matchAll(re)) {
      found.push([m[0], m[1], m.index]);
      if (found.length >= max) break;
    }
    return found;
  });
})()`);

/**
 * Every match (at most `max` per text) of `source` in each text, run with a time budget: a
 * pattern that takes longer than `budgetMs` is abandoned and the answer is `'timeout'`. Patterns
 * are run with the `g` and `u` flags plus `flags`.
 */
export const matchBounded = (
  source: string,
  texts: readonly string[],
  options: { readonly flags?: string; readonly max?: number; readonly budgetMs?: number } = {},
): PatternMatch[][] | 'timeout' => {
  Object.assign(context, { source, flags: `gu${options.flags ?? ''}`, texts: [...texts], max: options.max ?? 5 });
  try {
    const raw = runner.runInContext(context, { timeout: options.budgetMs ?? PATTERN_BUDGET_MS }) as [string, string | undefined, number][][];
    return raw.map((found) => found.map(([match, group, index]) => ({ match: String(match), group: group === undefined ? undefined : String(group), index: Number(index) })));
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    throw error;
  } finally {
    Object.assign(context, { texts: [] });
  }
};
