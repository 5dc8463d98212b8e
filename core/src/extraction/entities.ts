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
]);
LATIN1.split(' ').forEach((name, i) => NAMED.set(name, String.fromCodePoint(0xa0 + i)));

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));?/g;

const fromCode = (code: number, raw: string): string =>
  code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : raw;

/** Decodes numeric and the common named HTML character references; unknown names stay as written. */
export const decodeEntities = (s: string): string =>
  s.indexOf('&') < 0
    ? s
    : s.replace(ENTITY, (raw, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
        if (dec !== undefined) return fromCode(Number.parseInt(dec, 10), raw);
        if (hex !== undefined) return fromCode(Number.parseInt(hex, 16), raw);
        return NAMED.get(name ?? '') ?? raw;
      });
