import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a high-entropy secret, hex: what is stored instead of the secret. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Constant-time check of a presented secret against a stored hash. */
export const secretMatches = (presented: string, storedHash: string): boolean => {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
};

/** A hash no secret matches, compared when a credential's id is unknown so timing reveals nothing. */
export const DECOY_HASH = hashSecret('decoy');

const CREDENTIAL = /^(aid|eat)_([A-Za-z0-9]{16})_([A-Za-z0-9]{40})$/;

/** The parts of a presented credential, or `undefined` when it is not one of ours. */
export const parseCredential = (
  value: string,
): { readonly kind: 'api_key' | 'access_token'; readonly id: string; readonly secret: string } | undefined => {
  const match = CREDENTIAL.exec(value);
  if (match === null) return undefined;
  const [, prefix, id, secret] = match as unknown as [string, string, string, string];
  return { kind: prefix === 'aid' ? 'api_key' : 'access_token', id, secret };
};

export const API_KEY_ID_PREFIX = 'key';
export const ACCESS_TOKEN_ID_PREFIX = 'tok';
