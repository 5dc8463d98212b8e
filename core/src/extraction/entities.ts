import { isAsciiDigit, isAsciiLetter } from './ascii.js';

// HTML 4 Latin-1 entities in code-point order from U+00A0; a fixed fact of the standard, listed
// once so legacy-charset mail that spells letters as entities still reads as words.
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 ' +
  'sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc ' +
  'Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve ' +
  'Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute ' +
  'acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ' +
  'ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

const NAMED = new Map<string, string>([
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"],
  ['mdash', '\u2014'], ['ndash', '\u2013'], ['hellip', '\u2026'], ['bull', '\u2022'],
  ['lsquo', '\u2018'], ['rsquo', '\u2019'], ['ldquo', '\u201c'], ['rdquo', '\u201d'],
  ['euro', '\u20ac'], ['trade', '\u2122'], ['zwnj', ''], ['zwj', ''], ['lrm', ''], ['rlm', ''],
  ['ensp', ' '], ['emsp', ' '], ['thinsp', ' '], ['rarr', '\u2192'], ['larr', '\u2190'],
  // HTML5's names for blanks and invisible characters: mail uses them to space or split a code.
  ['ZeroWidthSpace', ''], ['NoBreak', ''], ['NegativeVeryThinSpace', ''], ['NegativeThinSpace', ''],
  ['NegativeMediumSpace', ''], ['NegativeThickSpace', ''], ['InvisibleTimes', ''], ['InvisibleComma', ''],
  ['it', ''], ['ic', ''], ['af', ''], ['ApplyFunction', ''], ['NonBreakingSpace', '\u00a0'], ['ThinSpace', ' '],
  ['VeryThinSpace', ' '], ['MediumSpace', ' '], ['hairsp', ' '], ['numsp', ' '], ['puncsp', ' '], ['emsp13', ' '],
  ['emsp14', ' '], ['nbsp', '\u00a0'], ['Tab', '\t'], ['NewLine', '\n'], ['hyphen', '\u2010'], ['dash', '\u2010'],
  ['middot', '\u00b7'], ['centerdot', '\u00b7'], ['CenterDot', '\u00b7'], ['period', '.'], ['lowbar', '_'],
  ['UnderBar', '_'], ['minus', '\u2212'], ['half', '\u00bd'],
]);
LATIN1.split(' ').forEach((name, i) => NAMED.set(name, String.fromCodePoint(0xa0 + i)));

// A reference is '&' then '#' and 1-7 decimal digits, '#x' and 1-6 hex digits, or a letter and
// 1-31 letters or digits (each run as long as it can be), then an optional ';'.
const digitValue = (c: number, base: number): number => (isAsciiDigit(c) ? c - 48 : base === 16 && (c | 32) >= 97 && (c | 32) <= 102 ? (c | 32) - 87 : -1);

const validCode = (code: number): boolean => code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);

/** The text the reference at `amp` stands for, or undefined when it is kept as written; its end in `found.end`. */
const reference = (s: string, amp: number, found: { end: number }): string | undefined => {
  let i = amp + 1;
  if (s.charCodeAt(i) === 35) {
    const hex = (s.charCodeAt(i + 1) | 32) === 120;
    const base = hex ? 16 : 10;
    const start = hex ? i + 2 : i + 1;
    let code = 0;
    for (i = start; i - start < (hex ? 6 : 7); i += 1) {
      const d = digitValue(s.charCodeAt(i), base);
      if (d < 0) break;
      code = code * base + d;
    }
    if (i === start) return undefined;
    found.end = s.charCodeAt(i) === 59 ? i + 1 : i;
    return validCode(code) ? String.fromCodePoint(code) : undefined;
  }
  if (!isAsciiLetter(s.charCodeAt(i))) return undefined;
  i += 1;
  while (i - amp <= 32 && (isAsciiLetter(s.charCodeAt(i)) || isAsciiDigit(s.charCodeAt(i)))) i += 1;
  if (i - amp < 3) return undefined;
  found.end = s.charCodeAt(i) === 59 ? i + 1 : i;
  return NAMED.get(s.slice(amp + 1, i));
};

/**
 * The character reference that starts at the '&' at `amp`: the text it stands for and where it
 * ends, or undefined when it is kept as written (as {@link decodeEntities} reads it).
 */
export const referenceAt = (s: string, amp: number): { readonly text: string; readonly end: number } | undefined => {
  const found = { end: amp + 1 };
  const text = reference(s, amp, found);
  return text === undefined ? undefined : { text, end: found.end };
};

/**
 * Decodes numeric and the common named HTML character references; unknown names stay as written.
 * Read by character from each '&', and copying only between references, instead of a pattern
 * replace with a callback for each reference (links in mail often hold many '&amp;').
 */
export const decodeEntities = (s: string): string => {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  let out = '';
  let from = 0;
  const found = { end: 0 };
  while (amp >= 0) {
    found.end = amp + 1;
    const text = reference(s, amp, found);
    if (text !== undefined) {
      out += s.slice(from, amp) + text;
      from = found.end;
    }
    amp = s.indexOf('&', found.end);
  }
  return from === 0 ? s : out + s.slice(from);
};
