import { Script, createContext } from 'node:vm';

/**
 * Regular expressions written by template authors and filled with callers' parameters. They run
 * on every message an identity receives, so a pattern that backtracks without end would stall the
 * mail thread: a pattern is checked before it is accepted ({@link checkPattern}) and every run is
 * cut off once it has used {@link PATTERN_BUDGET_MS} of CPU time ({@link matchBounded}).
 */

/** Longest pattern accepted, in UTF-16 code units. */
export const MAX_PATTERN_LENGTH = 500;

/** How much CPU time one run of a pattern over one message may take before it is abandoned. */
export const PATTERN_BUDGET_MS = 25;

/**
 * The wall-clock windows a run gets, as multiples of its budget: the next one only when the run
 * was cut in the last one without having had its budget of CPU time (a busy machine, not a slow
 * pattern). A catastrophic pattern therefore stalls the thread for at most 63 budgets, and only
 * when the machine is that busy.
 */
const WINDOWS = [1, 2, 4, 8, 16, 32];

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

/** CPU time this process has used, in milliseconds (user and system). */
export type CpuClock = () => number;

const processCpuMs: CpuClock = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export interface MatchOptions {
  /** Added to the `g` and `u` flags. */
  readonly flags?: string;
  /** Matches kept per text; 5 by default. */
  readonly max?: number;
  /** CPU time the run may use; {@link PATTERN_BUDGET_MS} by default. */
  readonly budgetMs?: number;
  /** Where CPU time is read; the process's own by default (tests hand in a fake one). */
  readonly cpuMs?: CpuClock;
}

type RawMatches = [string, string | undefined, number][][];

/** One run in a wall-clock window: its matches, or how much CPU time it had when it was cut. */
const runInWindow = (windowMs: number, cpuMs: CpuClock): RawMatches | { cutAfterCpuMs: number } => {
  const before = cpuMs();
  try {
    return runner.runInContext(context, { timeout: Math.max(1, Math.ceil(windowMs)) }) as RawMatches;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { cutAfterCpuMs: cpuMs() - before };
    throw error;
  }
};

/**
 * Every match (at most `max` per text) of `source` in each text, run with a CPU-time budget: a
 * pattern still running when it has used `budgetMs` of CPU time is abandoned and the answer is
 * `'timeout'`. The cut itself comes from node:vm's wall-clock `timeout`, which a busy machine
 * reaches before the run had its CPU time; such a run is started again in a longer window
 * ({@link WINDOWS}), so the answer depends on the pattern and the text, not on the machine's load.
 * Patterns are run with the `g` and `u` flags plus `flags`.
 */
export const matchBounded = (source: string, texts: readonly string[], options: MatchOptions = {}): PatternMatch[][] | 'timeout' => {
  const budgetMs = options.budgetMs ?? PATTERN_BUDGET_MS;
  Object.assign(context, { source, flags: `gu${options.flags ?? ''}`, texts: [...texts], max: options.max ?? 5 });
  try {
    for (const times of WINDOWS) {
      const run = runInWindow(budgetMs * times, options.cpuMs ?? processCpuMs);
      if (Array.isArray(run)) {
        return run.map((found) => found.map(([match, group, index]) => ({ match: String(match), group: group === undefined ? undefined : String(group), index: Number(index) })));
      }
      if (run.cutAfterCpuMs >= budgetMs) return 'timeout';
    }
    return 'timeout';
  } finally {
    Object.assign(context, { texts: [] });
  }
};
