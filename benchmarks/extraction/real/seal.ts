import { createHash } from 'node:crypto';

/**
 * The sealed rule (ADR 0047): a product of the real-package corpus whose name hashes (SHA-256 of
 * the name's UTF-8 bytes, in hex) to a first digit 0–4 is sealed: its messages and per-case
 * outcomes are never printed, only aggregates. Products that the shared corpus already holds have
 * been read while the engine was tuned, so they are never sealed.
 */
export const isSealed = (product: string, sharedProducts: ReadonlySet<string> = new Set()): boolean => {
  if (sharedProducts.has(product)) return false;
  const first = createHash('sha256').update(product, 'utf8').digest('hex')[0] ?? 'f';
  return first >= '0' && first <= '4';
};
