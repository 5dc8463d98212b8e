import { randomFillSync } from 'node:crypto';

/**
 * Cryptographic random bytes handed out from a buffer refilled 4 KiB at a time. One
 * `randomFillSync` per call costs a round trip into OpenSSL that dwarfs the bytes; an identity
 * creation draws about ten times. Bytes are never handed out twice: each read advances the offset.
 */
export class RandomPool {
  private readonly buffer: Buffer;
  private offset: number;

  constructor(private readonly size = 4096) {
    this.buffer = Buffer.allocUnsafe(size);
    this.offset = size;
  }

  /** `n` fresh random bytes (a copy, at most the pool's size). */
  bytes(n: number): Buffer {
    if (n > this.size) return randomFillSync(Buffer.allocUnsafe(n));
    if (this.offset + n > this.size) {
      randomFillSync(this.buffer);
      this.offset = 0;
    }
    const out = Buffer.from(this.buffer.subarray(this.offset, this.offset + n));
    this.offset += n;
    return out;
  }

  /**
   * `length` characters drawn uniformly from `alphabet` (at most 256 characters), by rejection
   * sampling: bytes at or above the largest multiple of the alphabet's size are skipped, so no
   * character is more likely than another.
   */
  chars(alphabet: string, length: number): string {
    const limit = 256 - (256 % alphabet.length);
    let out = '';
    while (out.length < length) {
      for (const byte of this.bytes(length - out.length + 8)) {
        if (byte < limit) out += alphabet[byte % alphabet.length];
        if (out.length === length) break;
      }
    }
    return out;
  }
}

/** The process's pool: ids, secrets and nonces all draw from it. */
export const sharedRandomPool = new RandomPool();
