/** One header field of a message: the name lower-cased, the value unfolded and trimmed. */
export interface HeaderField {
  readonly name: string;
  readonly value: string;
}

/** How much of a message is searched for the end of its header section. */
export const MAX_HEADER_BYTES = 256 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/** Offset of the blank line that ends the header section, or the scan limit when there is none. */
const headerEnd = (raw: Uint8Array, limit: number): number => {
  const end = Math.min(raw.length, limit);
  for (let i = 0; i < end; i += 1) {
    if (raw[i] !== LF) continue;
    if (raw[i + 1] === LF) return i + 1;
    if (raw[i + 1] === CR && raw[i + 2] === LF) return i + 1;
  }
  return end;
};

/**
 * The header fields of a raw message, in order. Only the first `maxBytes` are read, so a message
 * with a hostile header section costs bounded work; fields past that point are not seen. Invalid
 * UTF-8 becomes U+FFFD rather than failing: routing needs the addresses, which are ASCII in
 * nearly all mail.
 */
export const readHeaderFields = (raw: Uint8Array, maxBytes: number = MAX_HEADER_BYTES): HeaderField[] => {
  const text = new TextDecoder('utf-8').decode(raw.subarray(0, headerEnd(raw, maxBytes)));
  const fields: { name: string; value: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const last = fields[fields.length - 1];
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== undefined) {
      // A folded continuation: RFC 5322 unfolding drops only the line break.
      last.value += line;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.push({ name: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1) });
  }
  return fields.map(({ name, value }) => ({ name, value: value.trim() }));
};
