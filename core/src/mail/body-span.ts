/**
 * Where a body of a message's parsed form lies in its raw bytes, so that a body sent as plain
 * 7bit or 8bit text is stored once (in the raw slices) instead of twice (ADR 0023).
 *
 * The body named by a span is `raw[start, end)` read as UTF-8, with each CRLF made LF (parsers
 * hand text with LF line ends). A span is only ever recorded after that reading was checked to
 * give the body exactly, so whatever the parser did, reading the span back gives what it gave.
 */
export interface BodySpan {
  readonly start: number;
  readonly end: number;
}

/**
 * What storing a message derives from its raw bytes and parsed form, when a parser derived it
 * already (on its own thread, see `ParseOutcome.digest`): the content hash of the raw bytes and
 * where its bounded text and HTML lie in them. A body with a span here may be handed back empty
 * in the parsed message: storing reads it from the raw bytes.
 */
export interface StorageDigest {
  readonly sha256: string;
  readonly textSpan?: BodySpan;
  readonly htmlSpan?: BodySpan;
}

/** Bodies shorter than this (in UTF-16 units) are kept as they are: a span would save less than the read of the raw costs. */
export const MIN_SPANNED_BODY = 1024;

/** The body a span names. */
export const bodyAt = (raw: Buffer, span: BodySpan): string => raw.toString('utf8', span.start, span.end).replaceAll('\r\n', '\n');

/** At most this many places where the body's first line occurs are tried, and at most this many readings compared. */
const MAX_CANDIDATES = 8;
const MAX_READINGS = 2;
/** How much of the first line is looked for, and of the end compared before a whole reading. */
const PROBE_CHARS = 64;

/** `String.prototype.isWellFormed` (Node 20 has it; the ES2023 typings do not). */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

const countLineFeeds = (body: string): number => {
  let count = 0;
  for (let at = body.indexOf('\n'); at !== -1; at = body.indexOf('\n', at + 1)) count += 1;
  return count;
};

/** The body's last characters, not starting inside a surrogate pair. */
const tailOf = (body: string): string => {
  let from = Math.max(0, body.length - PROBE_CHARS);
  const unit = body.charCodeAt(from);
  if (unit >= 0xdc00 && unit <= 0xdfff) from += 1;
  return body.slice(from);
};

/**
 * Finds where `body` lies verbatim in `raw` (as UTF-8, with CRLF or LF line ends), or
 * `undefined`: a body shorter than {@link MIN_SPANNED_BODY}, one that is not well-formed UTF-16,
 * or one the parser decoded from a transfer encoding or another charset is not there to find.
 * Bounded: the body's first line is looked for in at most eight places, each place is first
 * checked by the body's last bytes, and at most two whole readings are compared with the body.
 */
export const findBodySpan = (raw: Uint8Array, body: string): BodySpan | undefined => {
  if (body.length < MIN_SPANNED_BODY || body.charCodeAt(0) === 0x0a || !isWellFormed(body)) return undefined;
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const firstLineEnd = body.indexOf('\n');
  const needle = Buffer.from(body.slice(0, Math.min(firstLineEnd === -1 ? body.length : firstLineEnd, PROBE_CHARS)), 'utf8');
  const bodyBytes = Buffer.byteLength(body, 'utf8');
  const lineFeeds = countLineFeeds(body);
  const tail = tailOf(body);
  // CRLF line ends (as SMTP carries mail), then LF alone (as some stores and clients keep it).
  const variants = [
    { extra: lineFeeds, tail: Buffer.from(tail.replaceAll('\n', '\r\n'), 'utf8') },
    ...(lineFeeds === 0 ? [] : [{ extra: 0, tail: Buffer.from(tail, 'utf8') }]),
  ];
  let readings = 0;
  let from = 0;
  for (let candidate = 0; candidate < MAX_CANDIDATES; candidate += 1) {
    const start = bytes.indexOf(needle, from);
    if (start === -1) return undefined;
    from = start + 1;
    for (const variant of variants) {
      const end = start + bodyBytes + variant.extra;
      if (end > bytes.byteLength || bytes.compare(variant.tail, 0, variant.tail.byteLength, end - variant.tail.byteLength, end) !== 0) continue;
      if (readings === MAX_READINGS) return undefined;
      readings += 1;
      if (bodyAt(bytes, { start, end }) === body) return { start, end };
    }
  }
  return undefined;
};
