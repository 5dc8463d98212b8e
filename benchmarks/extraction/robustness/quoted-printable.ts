/**
 * Quoted-printable (RFC 2045 §6.7) with soft line breaks placed where a test asks for them as
 * well as where the line length needs one: mailers break lines wherever the 76th character falls,
 * inside a URL or a code as readily as between words.
 */

const HEX = '0123456789ABCDEF';

const needsEscape = (b: number, lastOfLine: boolean): boolean => b === 0x3d || b > 0x7e || (b < 0x20 && b !== 0x09) || ((b === 0x20 || b === 0x09) && lastOfLine);

/**
 * Encodes bytes whose lines end in LF (a CR before it is dropped). `breaks` holds byte offsets
 * (into `bytes`) before which a soft break goes; `lineLength` counts the `=` of a soft break.
 */
export const encodeQuotedPrintable = (bytes: Uint8Array, options: { lineLength?: number; breaks?: ReadonlySet<number>; eol?: string } = {}): string => {
  const max = Math.max(4, options.lineLength ?? 76);
  const eol = options.eol ?? '\r\n';
  const breaks = options.breaks ?? new Set<number>();
  const out: string[] = [];
  let line = '';
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i] ?? 0;
    if (b === 0x0a) {
      out.push(line, eol);
      line = '';
      continue;
    }
    if (b === 0x0d && bytes[i + 1] === 0x0a) continue;
    const next = bytes[i + 1];
    const piece = needsEscape(b, next === undefined || next === 0x0a || (next === 0x0d && bytes[i + 2] === 0x0a)) ? `=${HEX[b >> 4]}${HEX[b & 15]}` : String.fromCharCode(b);
    if ((breaks.has(i) && line !== '') || line.length + piece.length > max - 1) {
      out.push(line, `=${eol}`);
      line = '';
    }
    line += piece;
  }
  out.push(line);
  return out.join('');
};

/** The offsets of every occurrence of `needle` in `bytes`. */
export const occurrences = (bytes: Uint8Array, needle: Uint8Array): number[] => {
  const at: number[] = [];
  if (needle.length === 0) return at;
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) at.push(i);
  return at;
};
