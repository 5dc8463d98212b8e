import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Signing secrets at rest. They must be usable to sign, so they cannot be hashed like API keys;
 * they are sealed with AES-256-GCM under the deployment's data key instead. The record id is
 * bound as associated data, so a sealed secret copied onto another endpoint does not open.
 *
 * Sealed form: `v1.<key id>.<base64url(iv ‖ tag ‖ ciphertext)>`; the key id (first 8 hex of
 * SHA-256 of the key) tells a key change apart from tampering.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const DATA_KEY_BYTES = 32;

/** Refuses a data key of the wrong size at start-up rather than at the first delivery. */
export const assertDataKey = (key: Buffer): void => {
  if (!Buffer.isBuffer(key) || key.length !== DATA_KEY_BYTES) {
    throw new Error(`the data key must be ${DATA_KEY_BYTES} bytes (got ${Buffer.isBuffer(key) ? key.length : typeof key})`);
  }
};

export const dataKeyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

export const sealSecret = (key: Buffer, secret: string, context: string): string => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const sealed = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
  return `${VERSION}.${dataKeyId(key)}.${sealed}`;
};

export type OpenedSecret = { readonly ok: true; readonly secret: string } | { readonly ok: false; readonly reason: string };

/** The secret, or why it cannot be read (sealed under another data key, or altered). */
export const openSecret = (key: Buffer, sealed: string, context: string): OpenedSecret => {
  const [version, keyId, payload] = sealed.split('.');
  if (version !== VERSION || keyId === undefined || payload === undefined) return { ok: false, reason: 'unknown sealed-secret format' };
  if (keyId !== dataKeyId(key)) return { ok: false, reason: `the secret was sealed under another data key (${keyId})` };
  const bytes = Buffer.from(payload, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    return { ok: true, secret: plain.toString('utf8') };
  } catch {
    return { ok: false, reason: 'the sealed secret failed authentication' };
  }
};
