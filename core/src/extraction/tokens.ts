import { LONGEST_CODE_TOKEN } from './code-shape.js';

/**
 * Calls `visit` with the start and end of every token of `text` that could be a code: runs of
 * ASCII letters and digits joined by single dashes (`-`, U+2010, U+2011), four to
 * LONGEST_CODE_TOKEN characters long (no code shape admits a longer one). The letters and digits
 * are counted while the token is read, and plain words (lower-case letters, no digit, under three
 * capitals), which no code shape admits, are skipped without building a string or a match object: they are most tokens of a message, and their
 * match objects and substrings were a large share of the engine's garbage.
 *
 * A token that is not a plain word holds a digit or a capital, so the text is searched for the
 * next one of those (a character-class search, without a match object), and only the token that
 * holds it is read: from its start, found by walking back over letters, digits and joining
 * dashes. The all-lower-case tokens in between are never read one character at a time.
 *
 * The counts only decide whether a token is a plain word, and a digit or a third capital settles
 * that: from there the rest of the token is found by a sticky search for its run of letters and
 * digits (RUN), repeated past each joining dash. A long run of capitals and digits, such as a line
 * of a generated body, is then not read one character at a time either (a 32 KiB body of such
 * lines went from about 300 to 65 µs), and being too long to be a code, it is not visited.
 */
export const codeTokens = (text: string, visit: (start: number, end: number) => void): void => {
  const n = text.length;
  let i = 0;
  while (i < n) {
    MARK.lastIndex = i;
    if (!MARK.test(text)) return;
    let start = MARK.lastIndex - 1;
    // Back to where the token starts: past letters and digits, and past a dash between two of them.
    for (;;) {
      while (kindOf(text.charCodeAt(start - 1)) !== 0) start -= 1;
      if (!isDash(text.charCodeAt(start - 1)) || kindOf(text.charCodeAt(start - 2)) === 0) break;
      start -= 2;
    }
    i = start;
    let digits = 0;
    let upper = 0;
    let lower = 0;
    read: for (;;) {
      for (let k = kindOf(text.charCodeAt(i)); k !== 0; k = kindOf(text.charCodeAt(i))) {
        if (k === DIGIT) digits += 1;
        else if (k === UPPER) upper += 1;
        else lower += 1;
        i += 1;
        if (digits > 0 || upper >= 3) break read;
      }
      if (!joinsAt(text, i)) break;
      i += 1;
    }
    // Settled (not a plain word): the rest of the token is runs of letters and digits.
    if (digits > 0 || upper >= 3) {
      for (;;) {
        RUN.lastIndex = i;
        RUN.test(text);
        i = RUN.lastIndex;
        if (!joinsAt(text, i)) break;
        i += 1;
      }
    }
    const length = i - start;
    if (length >= 4 && length <= LONGEST_CODE_TOKEN && !(digits === 0 && lower > 0 && upper < 3)) visit(start, i);
  }
};

// A digit or an ASCII capital: every token that is not a plain word holds one.
const MARK = /[0-9A-Z]/g;
// A run of letters and digits, from where it is searched.
const RUN = /[0-9A-Za-z]*/y;

const DIGIT = 1;
const UPPER = 2;
const LOWER = 3;

const kindOf = (c: number): number => {
  if (c >= 48 && c <= 57) return DIGIT;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 97 && c <= 122) return LOWER;
  return 0;
};

const isDash = (c: number): boolean => c === 45 || c === 0x2010 || c === 0x2011;

/** A dash at `i` continues the token only when a letter or digit follows it. */
const joinsAt = (text: string, i: number): boolean => isDash(text.charCodeAt(i)) && kindOf(text.charCodeAt(i + 1)) !== 0;
