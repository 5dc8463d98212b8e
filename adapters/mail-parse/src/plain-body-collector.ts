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

/** The part of postal-mime's (internal) MIME node this relies on. */
interface MimeNodeShape {
  contentDecoder: unknown;
  setupContentDecoder(transferEncoding: string): void;
}

let installed: boolean | undefined;

/**
 * Makes postal-mime collect pass-through bodies with {@link PlainBodyCollector}, once per process.
 * It wraps the MIME node's decoder set-up: the library still decides the decoder, and only its
 * pass-through decoder is swapped, so base64 and quoted-printable parts are untouched. The node
 * class is not exported; it is found as the prototype of a parser's root node. Answers whether
 * the collector is in place: when a postal-mime version no longer has this shape, nothing is
 * changed and the library's own decoder runs (slower, same result).
 */
export const installPlainBodyCollector = (): boolean => {
  if (installed !== undefined) return installed;
  const root = (new PostalMime() as unknown as { root?: object }).root;
  const node = (root === undefined ? undefined : Object.getPrototypeOf(root)) as Partial<MimeNodeShape> | undefined;
  const original = node?.setupContentDecoder;
  if (node === undefined || typeof original !== 'function') return (installed = false);
  node.setupContentDecoder = function setupContentDecoder(this: MimeNodeShape, transferEncoding: string): void {
    original.call(this, transferEncoding);
    const decoder = this.contentDecoder as { constructor?: { name?: string } } | null;
    if (decoder?.constructor?.name === 'PassThroughDecoder') this.contentDecoder = new PlainBodyCollector();
  };
  return (installed = true);
};
