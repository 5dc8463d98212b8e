const LF = 0x0a;
const CR = 0x0d;

/** Why a message cannot be delivered, found while it streamed in. */
export type CollectedVerdict = 'ok' | 'too_big' | 'line_too_long';

/**
 * Buffers the DATA stream of one message up to the size cap and watches line lengths as it
 * goes. Once a limit is broken the buffered bytes are released and the rest is only counted,
 * so memory per session stays below the cap however much a client sends.
 */
export class MessageCollector {
  private chunks: Buffer[] = [];
  private received = 0;
  private lineBytes = 0;
  private previousEndedInCr = false;
  private broken: CollectedVerdict = 'ok';

  constructor(
    private readonly maxBytes: number,
    private readonly maxLineLength: number,
  ) {}

  /** Takes the next chunk of (already dot-unstuffed) message data. */
  push(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.broken === 'ok' && this.received > this.maxBytes) this.breakWith('too_big');
    if (this.broken === 'ok') this.scanLines(chunk);
    if (this.broken === 'ok') this.chunks.push(chunk);
  }

  /** Bytes seen so far, including those dropped after a limit was broken. */
  get size(): number {
    return this.received;
  }

  /** Call once the stream ended. */
  verdict(): CollectedVerdict {
    // Data always ends with the CRLF before the final dot, so this only fires for a stream
    // cut short, which the connection answers anyway; it keeps the rule total.
    if (this.broken === 'ok' && this.lineBytes > this.maxLineLength) this.breakWith('line_too_long');
    return this.broken;
  }

  /**
   * The whole message when {@link verdict} is `'ok'`; empty once a limit was broken. Call once:
   * the chunks are let go, so the socket's read buffers they point into are not held while the
   * message is delivered.
   */
  bytes(): Buffer {
    const chunks = this.chunks;
    this.chunks = [];
    return this.broken === 'ok' ? Buffer.concat(chunks, this.received) : Buffer.alloc(0);
  }

  private breakWith(verdict: Exclude<CollectedVerdict, 'ok'>): void {
    this.broken = verdict;
    this.chunks = [];
  }

  private scanLines(chunk: Buffer): void {
    let start = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, start)) {
      const endsInCr = lf > start ? chunk[lf - 1] === CR : lf === 0 && this.previousEndedInCr && this.lineBytes > 0;
      const length = this.lineBytes + (lf - start) - (endsInCr ? 1 : 0);
      if (length > this.maxLineLength) return this.breakWith('line_too_long');
      this.lineBytes = 0;
      start = lf + 1;
    }
    this.lineBytes += chunk.length - start;
    if (chunk.length > 0) this.previousEndedInCr = chunk[chunk.length - 1] === CR;
    // One byte of slack: the CR of a CRLF may be the last byte seen so far.
    if (this.lineBytes > this.maxLineLength + 1) this.breakWith('line_too_long');
  }
}
