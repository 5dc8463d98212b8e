import { shapeOf, type Shape } from './code-shape.js';
import { codeTokens } from './tokens.js';

// Mail prints a code apart to make it easy to read or copy: in groups split by spaces ("SRK ZPW",
// "46b9 3d09 …"), one character apart ("S R K Z P W"), or one character to a table cell (tabs,
// once the HTML is read). Such a run is read as the code it spells, and the ranker decides.

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isGap = (c: number): boolean => c === 32 || c === 9 || c === 0xa0;
// A digit or a capital: every run that spells a code holds one (lower-case hex has digits).
const MARK = /[0-9A-Z]/g;
const MAX_GROUP = 8;
const MAX_GAP = 3;
// A group that reads as a word (lower case, or one capital first): prose, not a code's piece.
const WORD = /^[A-Z]?[a-z]+$/;
const DIGITS = /^[0-9]+$/;
const LONGEST = 64;

interface Group {
  readonly start: number;
  readonly end: number;
  /** True when the gap before it holds a tab: cells, which hold one character each. */
  readonly tabbed: boolean;
}

/** The groups of one run, from the group at `[start, end)` on: letters and digits split by one to three blanks. */
const groupsFrom = (text: string, start: number, end: number): Group[] => {
  const groups: Group[] = [{ start, end, tabbed: false }];
  for (let at = end; ; ) {
    let next = at;
    let tabbed = false;
    while (next < text.length && next - at < MAX_GAP && isGap(text.charCodeAt(next))) {
      if (text.charCodeAt(next) === 9) tabbed = true;
      next += 1;
    }
    if (next === at || !isAlnum(text.charCodeAt(next))) return groups;
    let e = next;
    while (isAlnum(text.charCodeAt(e))) e += 1;
    if (e - next > MAX_GROUP) return groups;
    groups.push({ start: next, end: e, tabbed });
    at = e;
  }
};

/**
 * The shape of the groups `[from, to)` read as one code, if they can be one: groups of one length
 * (the last may be shorter, unless all are digits); one character each only when four or more;
 * tabs only between single characters (a table of numbers is no code); no group a word, unless the
 * whole is hex; no group of five or more digits beside letters ("482913 ABCD" is a code and a word).
 */
const spelled = (text: string, groups: readonly Group[]): Shape | undefined => {
  const size = (groups[0]?.end ?? 0) - (groups[0]?.start ?? 0);
  if (groups.length < (size === 1 ? 4 : 2)) return undefined;
  const pieces = groups.map((g) => text.slice(g.start, g.end));
  const compact = pieces.join('');
  if (compact.length < 4 || compact.length > LONGEST) return undefined;
  const digitsOnly = DIGITS.test(compact);
  // Digit runs are read by the digit-group patterns of codes.ts.
  if (digitsOnly && size <= 3) return undefined;
  for (let i = 0; i < groups.length; i += 1) {
    const g = groups[i] as Group;
    const length = g.end - g.start;
    if (length > size || (length < size && (i < groups.length - 1 || digitsOnly))) return undefined;
    if (g.tabbed && size > 1) return undefined;
    if (!digitsOnly && length >= 5 && DIGITS.test(pieces[i] ?? '')) return undefined;
  }
  const shape = shapeOf(compact);
  if (shape === undefined || size === 1 || shape.kind === 'hex') return shape;
  return pieces.some((p) => WORD.test(p)) ? undefined : shape;
};

/** The start of the run's first group, walking back from the group at `start` no further than `from`. */
const firstGroup = (text: string, start: number, from: number): number => {
  for (;;) {
    let gap = start;
    while (gap > from && start - gap < MAX_GAP && isGap(text.charCodeAt(gap - 1))) gap -= 1;
    if (gap === start || gap <= from || !isAlnum(text.charCodeAt(gap - 1))) return start;
    let s = gap;
    while (s > from && isAlnum(text.charCodeAt(s - 1))) s -= 1;
    if (gap - s > MAX_GROUP || (s > 0 && isAlnum(text.charCodeAt(s - 1)))) return start;
    start = s;
  }
};

/**
 * Calls `visit` with the start, end and shape of every run of groups in `text` that spells a code
 * (see `spelled`). A run is looked at only from a digit or a capital, and each part of the text is
 * read once: the scan goes on after the run it read.
 */
export const spacedCodes = (text: string, visit: (start: number, end: number, shape: Shape) => void): void => {
  let i = 0;
  while (i < text.length) {
    MARK.lastIndex = i;
    if (!MARK.test(text)) return;
    let start = MARK.lastIndex - 1;
    while (start > i && isAlnum(text.charCodeAt(start - 1))) start -= 1;
    let end = MARK.lastIndex;
    while (isAlnum(text.charCodeAt(end))) end += 1;
    if (end - start > MAX_GROUP || (start > 0 && isAlnum(text.charCodeAt(start - 1)))) {
      i = end;
      continue;
    }
    const first = firstGroup(text, start, i);
    if (first < start) {
      start = first;
      end = first;
      while (isAlnum(text.charCodeAt(end))) end += 1;
    }
    const groups = groupsFrom(text, start, end);
    i = groups[groups.length - 1]?.end ?? end;
    if (groups.length < 2) continue;
    // Split into runs of one group length, each ending at a shorter group or a longer one.
    for (let from = 0; from < groups.length - 1; ) {
      const size = (groups[from]?.end ?? 0) - (groups[from]?.start ?? 0);
      let to = from + 1;
      while (to < groups.length && (groups[to]?.end ?? 0) - (groups[to]?.start ?? 0) === size) to += 1;
      if (to < groups.length && (groups[to]?.end ?? 0) - (groups[to]?.start ?? 0) < size) to += 1;
      const run = groups.slice(from, to);
      const shape = spelled(text, run);
      if (shape !== undefined) visit(run[0]?.start ?? 0, run[run.length - 1]?.end ?? 0, shape);
      from = to;
    }
  }
};

/**
 * True when `label` (an attribute's text) holds a code-shaped token, or spells one once its blanks
 * and dashes are dropped ("SRK ZPW").
 */
export const holdsCode = (label: string): boolean => {
  if (label.length > 200) return false;
  const compact = label.replace(/[\s-]+/g, '');
  if (compact.length <= LONGEST && shapeOf(compact) !== undefined) return true;
  let found = false;
  codeTokens(label, (s, e) => {
    found ||= shapeOf(label.slice(s, e)) !== undefined;
  });
  return found;
};
