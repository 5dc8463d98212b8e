import PostalMime from 'postal-mime';

/**
 * Collects the lines of a body that needs no transfer decoding (7bit, 8bit, binary, or no
 * Content-Transfer-Encoding) into one growing buffer, each followed by `\n`: the same bytes
 * postal-mime's own pass-through decoder produces. That decoder keeps two `Blob` parts per line
 * and reads them back one by one (a promise per part), which cost 8-9 ms for a 50 KiB body of
 * 80-character lines, against under 1 ms here (see docs/adr/0010-smtp-ingest-path.md).
 */
class PlainBodyCollector {
  private bytes = new Uint8Array(4096);
  private length = 0;

  update(line: Uint8Array): void {
    const needed = this.length + line.byteLength + 1;
    if (needed > this.bytes.byteLength) {
      const grown = new Uint8Array(Math.max(needed, this.bytes.byteLength * 2));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(line, this.length);
    this.length += line.byteLength;
    this.bytes[this.length] = 0x0a;
    this.length += 1;
  }

  finalize(): Promise<ArrayBuffer> {
    return Promise.resolve(this.bytes.buffer.slice(0, this.length));
  }
}

/**
 * The decoded chunks of a body as one ArrayBuffer: the bytes `new Blob(chunks).arrayBuffer()`
 * gives, without the Blob. A lone chunk that fills its own buffer is answered as it is (the
 * decoder that made it is dropped after `finalize`).
 */
export const joinChunks = (chunks: readonly (ArrayBuffer | Uint8Array)[]): ArrayBuffer => {
  // Told apart with ArrayBuffer.isView rather than instanceof, which is false across realms.
  const only = chunks.length === 1 ? chunks[0] : undefined;
  if (only !== undefined && !ArrayBuffer.isView(only)) return only;
  if (only !== undefined && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength && !(only.buffer instanceof SharedArrayBuffer)) return only.buffer;
  let total = 0;
  for (const chunk of chunks) total += chunk.byteLength;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(ArrayBuffer.isView(chunk) ? chunk : new Uint8Array(chunk), at);
    at += chunk.byteLength;
  }
  return out.buffer;
};

/** The part of postal-mime's (internal) MIME node this relies on. */
interface MimeNodeShape {
  contentDecoder: unknown;
  setupContentDecoder(transferEncoding: string): void;
}

/** The part of postal-mime's (internal) quoted-printable and base64 decoders this relies on. */
interface ChunkedDecoder {
  chunks: (ArrayBuffer | Uint8Array)[];
  finalize(): Promise<ArrayBuffer>;
}

/** Which of the swaps below are in place in this process. */
export interface BodyDecoders {
  /** Pass-through bodies are collected by {@link PlainBodyCollector}. */
  readonly plain: boolean;
  /** Quoted-printable bodies are joined without a Blob. */
  readonly quotedPrintable: boolean;
  /** Base64 bodies are joined without a Blob. */
  readonly base64: boolean;
}

const NONE: BodyDecoders = { plain: false, quotedPrintable: false, base64: false };

let installed: BodyDecoders | undefined;
/** Puts back what the swaps replaced, last swap first. */
const undo: (() => void)[] = [];

/**
 * Makes a decoder class answer its chunks joined by {@link joinChunks}: its `finalize` first
 * flushes what it holds (`flush`, its own method), then puts the chunks into a Blob and reads the
 * Blob back, which cost a fifth to a half of a whole parse of a small message (the Blob machinery,
 * a stream and several promises per part). Changes nothing and answers false when the class is
 * not of the expected shape.
 */
const joinWithoutBlob = (decoder: unknown, flush: 'flushBuffer' | 'flushRemainder'): boolean => {
  const proto = decoder === null || typeof decoder !== 'object' ? undefined : (Object.getPrototypeOf(decoder) as Record<string, unknown>);
  if (proto === undefined || typeof proto[flush] !== 'function' || typeof proto.finalize !== 'function' || !Array.isArray((decoder as ChunkedDecoder).chunks)) return false;
  const flushIt = proto[flush] as (this: ChunkedDecoder) => void;
  const original = proto.finalize;
  proto.finalize = function finalize(this: ChunkedDecoder): Promise<ArrayBuffer> {
    flushIt.call(this);
    return Promise.resolve(joinChunks(this.chunks));
  };
  undo.push(() => (proto.finalize = original));
  return true;
};

/**
 * Speeds up postal-mime's body decoding, once per process (per thread), with the same bytes out:
 *
 * - pass-through bodies go to {@link PlainBodyCollector}: the MIME node's decoder set-up is
 *   wrapped, the library still decides the decoder, and only its pass-through decoder is swapped;
 * - quoted-printable and base64 bodies keep the library's decoders, whose `finalize` joins their
 *   chunks directly (see {@link joinWithoutBlob}).
 *
 * The classes are not exported; they are found through a parser's root node, and the decoders
 * its set-up makes. Answers which swaps are in place: when a postal-mime version no longer has
 * the expected shape, that part is left alone and the library's own code runs (slower, same
 * result).
 */
export const installBodyDecoders = (): BodyDecoders => {
  if (installed !== undefined) return installed;
  const root = (new PostalMime() as unknown as { root?: MimeNodeShape }).root;
  const node = (root === undefined ? undefined : Object.getPrototypeOf(root)) as Partial<MimeNodeShape> | undefined;
  const original = node?.setupContentDecoder;
  if (root === undefined || node === undefined || typeof original !== 'function') return (installed = NONE);
  original.call(root, 'quoted-printable');
  const quotedPrintable = joinWithoutBlob(root.contentDecoder, 'flushBuffer');
  original.call(root, 'base64');
  const base64 = joinWithoutBlob(root.contentDecoder, 'flushRemainder');
  node.setupContentDecoder = function setupContentDecoder(this: MimeNodeShape, transferEncoding: string): void {
    original.call(this, transferEncoding);
    const decoder = this.contentDecoder as { constructor?: { name?: string } } | null;
    if (decoder?.constructor?.name === 'PassThroughDecoder') this.contentDecoder = new PlainBodyCollector();
  };
  undo.push(() => (node.setupContentDecoder = original));
  return (installed = { plain: true, quotedPrintable, base64 });
};

/**
 * Puts postal-mime's own decoders back, until the next {@link installBodyDecoders} (which a new
 * parser calls). For comparing against the stock library in one process: the extraction
 * benchmark's baseline and the tests that check the swaps change no byte. A parse running while
 * this is called may use either, with the same result.
 */
export const removeBodyDecoders = (): void => {
  for (let step = undo.pop(); step !== undefined; step = undo.pop()) step();
  installed = undefined;
};
