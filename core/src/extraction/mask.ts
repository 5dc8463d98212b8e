import { isAsciiDigit, isAsciiLetter } from './ascii.js';

/**
 * Blanks the URLs and e-mail addresses of a text (same length, so offsets keep), for code finding:
 * their pieces are never codes. It blanks exactly what a left-to-right replace with
 *
 *   /https?:\/\/[^\s<>"]+|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g
 *
 * blanks (a test compares both): a URL runs from its scheme to a blank, '<', '>' or '"'; an
 * address is a whole run of local-part characters, '@', and a domain of at least two labels. That
 * pattern cost most in its address branch, tried at the start of every run of word characters;
 * here an address is looked for only around an '@', found by a plain search, and URLs by a
 * pattern with a literal start.
 */
const URL_RE = /https?:\/\/[^\s<>"]+/g;

// \w of a pattern without the 'u' flag: ASCII letters, digits and '_'.
const isWord = (c: number): boolean => isAsciiLetter(c) || isAsciiDigit(c) || c === 95;
const isLocal = (c: number): boolean => isWord(c) || c === 46 || c === 43 || c === 45;
const isLabel = (c: number): boolean => isWord(c) || c === 45;

type Span = readonly [number, number];

const nextUrl = (t: string, from: number): Span | undefined => {
  URL_RE.lastIndex = from;
  const m = URL_RE.exec(t);
  return m === null ? undefined : [m.index, m.index + m[0].length];
};

/** Where the domain after the '@' at `at` ends (labels joined by single dots, at least two), or -1. */
const domainEnd = (t: string, at: number): number => {
  let i = at + 1;
  while (isLabel(t.charCodeAt(i))) i += 1;
  if (i === at + 1) return -1;
  let end = -1;
  while (t.charCodeAt(i) === 46 && isLabel(t.charCodeAt(i + 1))) {
    i += 2;
    while (isLabel(t.charCodeAt(i))) i += 1;
    end = i;
  }
  return end;
};

/**
 * The first address that starts at or after `from`. Its local part is the whole run of
 * local-part characters before an '@'; a run that began before `from` cannot start an address
 * there (the pattern's lookbehind), so its '@' is passed over. Each '@' is looked at once.
 */
const nextAddress = (t: string, from: number): Span | undefined => {
  for (let at = t.indexOf('@', from); at >= 0; at = t.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && isLocal(t.charCodeAt(start - 1))) start -= 1;
    if (start === at || start < from) continue;
    const end = domainEnd(t, at);
    if (end >= 0) return [start, end];
  }
  return undefined;
};

/** `t` with its URLs and addresses replaced by as many spaces; `t` itself when it has neither. */
export const maskLinksAndAddresses = (t: string): string => {
  let url = t.includes('http') ? nextUrl(t, 0) : undefined;
  let address = t.includes('@') ? nextAddress(t, 0) : undefined;
  let out = '';
  let last = 0;
  for (;;) {
    if (url !== undefined && url[0] < last) url = nextUrl(t, last);
    if (address !== undefined && address[0] < last) address = nextAddress(t, last);
    // The leftmost wins; a URL before an address starting at the same place, as in the pattern.
    const span = url !== undefined && (address === undefined || url[0] <= address[0]) ? url : address;
    if (span === undefined) return last === 0 ? t : out + t.slice(last);
    out += t.slice(last, span[0]) + ' '.repeat(span[1] - span[0]);
    last = span[1];
  }
};
