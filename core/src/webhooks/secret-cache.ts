import type { OpenedSecret } from './secret-box.js';
import { openSecret } from './secret-box.js';

/** Opens sealed signing secrets, remembering the answers (see {@link createSecretCache}). */
export interface SecretCache {
  /** The secret sealed in `sealed` for `context`, or why it cannot be read; as `openSecret`. */
  open(sealed: string, context: string): OpenedSecret;
}

/**
 * Opening a sealed secret (a key fingerprint and an AES-GCM decryption) is the same work for
 * every delivery to an endpoint, so its answer is kept, keyed by the sealed form itself: a
 * rotation writes a new sealed form (fresh nonce), so a rotated secret is never served from the
 * cache, and nothing here can be stale. It only saves work; every process opens secrets itself.
 * The least recently used entry goes beyond `capacity`.
 */
export const createSecretCache = (key: Buffer, capacity = 1024): SecretCache => {
  const opened = new Map<string, OpenedSecret>();
  return {
    open: (sealed, context) => {
      const id = `${context}\n${sealed}`;
      const found = opened.get(id);
      if (found !== undefined) {
        opened.delete(id);
        opened.set(id, found);
        return found;
      }
      const answer = openSecret(key, sealed, context);
      opened.set(id, answer);
      if (opened.size > capacity) opened.delete(opened.keys().next().value as string);
      return answer;
    },
  };
};
