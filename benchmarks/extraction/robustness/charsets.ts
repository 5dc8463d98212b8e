/**
 * Encoders for the legacy charsets mail still arrives in. Each table is the inverse of the WHATWG
 * decoder Node ships (TextDecoder), built once on first use: every single byte, or every lead and
 * trail byte pair, decoded and kept when it gives one character. Standard ranges are read first, so
 * a character the vendor extensions repeat keeps its standard bytes. ISO-2022-JP is written from
 * EUC-JP's JIS X 0208 rows with its escape sequences.
 */

type Table = Map<number, readonly number[]>;

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Lead and trail byte ranges to read, standard ones first. */
const DOUBLE_BYTE: Record<string, readonly (readonly [readonly number[], readonly number[]])[]> = {
  shift_jis: [[[...range(0x81, 0x9f), ...range(0xe0, 0xef)], [...range(0x40, 0x7e), ...range(0x80, 0xfc)]], [range(0xf0, 0xfc), [...range(0x40, 0x7e), ...range(0x80, 0xfc)]]],
  'euc-jp': [[range(0xa1, 0xfe), range(0xa1, 0xfe)]],
  gbk: [[range(0xa1, 0xf7), range(0xa1, 0xfe)], [range(0x81, 0xfe), [...range(0x40, 0x7e), ...range(0x80, 0xfe)]]],
  big5: [[range(0xa1, 0xf9), [...range(0x40, 0x7e), ...range(0xa1, 0xfe)]], [range(0x81, 0xa0), [...range(0x40, 0x7e), ...range(0xa1, 0xfe)]]],
  'euc-kr': [[range(0xa1, 0xfe), range(0xa1, 0xfe)], [range(0x81, 0xfe), [...range(0x41, 0x5a), ...range(0x61, 0x7a), ...range(0x81, 0xfe)]]],
};

// Windows-1252's 0x80–0x9F row (WHATWG index), written out: this Node's decoder drops those bytes.
const CP1252_HIGH = [0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178];

const tables = new Map<string, Table>();

const put = (table: Table, decoded: string, bytes: readonly number[]): void => {
  const cp = decoded.codePointAt(0);
  if (cp === undefined || cp === 0xfffd || decoded.length !== String.fromCodePoint(cp).length || table.has(cp)) return;
  table.set(cp, bytes);
};

const build = (charset: string): Table => {
  const decoder = new TextDecoder(charset);
  const table: Table = new Map();
  for (let b = 0; b < 0x80; b += 1) table.set(b, [b]);
  if (charset === 'windows-1252') CP1252_HIGH.forEach((cp, i) => table.set(cp, [0x80 + i]));
  for (const [leads, trails] of DOUBLE_BYTE[charset] ?? []) for (const lead of leads) for (const trail of trails) put(table, decoder.decode(Uint8Array.of(lead, trail)), [lead, trail]);
  // Single bytes above ASCII: the whole code page of a single-byte charset, half-width katakana in Shift_JIS.
  if (DOUBLE_BYTE[charset] === undefined || charset === 'shift_jis') for (let b = 0x80; b < 0x100; b += 1) put(table, decoder.decode(Uint8Array.of(b)), [b]);
  return table;
};

const tableOf = (charset: string): Table => {
  const known = tables.get(charset);
  if (known !== undefined) return known;
  const table = build(charset);
  tables.set(charset, table);
  return table;
};

/** What is written for a character the charset cannot hold: a numeric reference in HTML, `?` elsewhere. */
export type Fallback = 'html' | 'text';

const fallbackBytes = (cp: number, fallback: Fallback): number[] => [...Buffer.from(fallback === 'html' ? `&#${cp};` : '?', 'ascii')];

// Half-width katakana have no place in ISO-2022-JP's JIS X 0208 set; their full-width forms do.
const fullWidthKana = (s: string): string => s.replace(/[\uff61-\uff9f]+/g, (run) => run.normalize('NFKC'));

const iso2022jp = (text: string, fallback: Fallback): Buffer => {
  const euc = tableOf('euc-jp');
  const out: number[] = [];
  let kanji = false;
  for (const ch of fullWidthKana(text)) {
    const cp = ch.codePointAt(0) ?? 0;
    const pair = cp < 0x80 ? undefined : euc.get(cp);
    const jis = pair !== undefined && pair.length === 2 && (pair[0] ?? 0) >= 0xa1 ? pair.map((b) => b & 0x7f) : undefined;
    if (jis !== undefined) {
      if (!kanji) out.push(0x1b, 0x24, 0x42);
      kanji = true;
      out.push(...jis);
      continue;
    }
    if (kanji) out.push(0x1b, 0x28, 0x42);
    kanji = false;
    out.push(...(cp < 0x80 ? [cp] : fallbackBytes(cp, fallback)));
  }
  if (kanji) out.push(0x1b, 0x28, 0x42);
  return Buffer.from(out);
};

// Windows-1258 holds Vietnamese as precomposed vowels (â, ơ, ư…) followed by combining tone marks.
const TONES = /[\u0300\u0301\u0303\u0309\u0323]/g;

/** A character's bytes as a base letter and its tone marks, when the charset has both. */
const splitTones = (ch: string, table: Table): number[] | undefined => {
  const nfd = ch.normalize('NFD');
  const tones = nfd.match(TONES);
  if (tones === null) return undefined;
  const base = table.get(nfd.replace(TONES, '').normalize('NFC').codePointAt(0) ?? -1);
  const marks = tones.map((m) => table.get(m.codePointAt(0) ?? -1));
  return base === undefined || marks.some((m) => m === undefined) ? undefined : [...base, ...marks.flatMap((m) => m ?? [])];
};

/** Encodes text in a charset (a TextDecoder name); characters it cannot hold become the fallback. */
export const encodeIn = (text: string, charset: string, fallback: Fallback = 'text'): Buffer => {
  // WHATWG reads US-ASCII as Windows-1252; written, it is seven bits.
  if (/^(?:us-)?ascii$/i.test(charset)) return Buffer.from([...text].flatMap((ch) => (ch.charCodeAt(0) < 0x80 ? [ch.charCodeAt(0)] : fallbackBytes(ch.codePointAt(0) ?? 0, fallback))));
  const name = new TextDecoder(charset).encoding;
  if (name === 'utf-8') return Buffer.from(text, 'utf8');
  if (name === 'iso-2022-jp') return iso2022jp(text, fallback);
  const table = tableOf(name === 'gb18030' ? 'gbk' : name);
  const out: number[] = [];
  for (const ch of text.normalize('NFC')) {
    const cp = ch.codePointAt(0) ?? 0;
    out.push(...(table.get(cp) ?? splitTones(ch, table) ?? fallbackBytes(cp, fallback)));
  }
  return Buffer.from(out);
};

/** The number of characters of the text the charset cannot hold. */
export const unencodable = (text: string, charset: string): number => {
  const back = new TextDecoder(charset).decode(encodeIn(text, charset, 'text'));
  const norm = (s: string): string => s.normalize('NFC');
  if (norm(back) === norm(fullWidthKana(text))) return 0;
  return [...norm(back)].filter((ch) => ch === '?').length - [...norm(text)].filter((ch) => ch === '?').length;
};
