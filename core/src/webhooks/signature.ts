import { createHmac, timingSafeEqual } from 'node:crypto';

/** Receivers reject a timestamp further than this from their own clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export const SIGNATURE_HEADERS = {
  timestamp: 'X-Timestamp',
  signature: 'X-Signature',
  /** Present while a rotated-out secret still verifies (24 h after a rotation). */
  previous: 'X-Signature-Previous',
} as const;

/**
 * The signature of one delivery: lowercase hex HMAC-SHA256, keyed by the endpoint secret (its
 * UTF-8 bytes, `whsec_` prefix included), over `<timestamp>.<raw body>`. `timestamp` is the
 * `X-Timestamp` value, Unix seconds.
 */
export const signWebhook = (secret: string, timestamp: number | string, rawBody: string | Uint8Array): string =>
  createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest('hex');

export type WebhookVerifyFailure =
  | 'missing_timestamp'
  | 'missing_signature'
  | 'malformed_timestamp'
  | 'malformed_signature'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch';

export type WebhookVerification =
  | { readonly valid: true; readonly timestamp: number }
  | { readonly valid: false; readonly reason: WebhookVerifyFailure };

/** Request headers as Node (`IncomingHttpHeaders`) or fetch (`Headers`) hand them over. */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

const headerOf = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === wanted);
  const value = key === undefined ? undefined : (headers as Record<string, string | readonly string[] | undefined>)[key];
  return typeof value === 'string' ? value : value?.[0];
};

const TIMESTAMP = /^\d{10}$/;
const SIGNATURE = /^[0-9a-f]{64}$/i;

/** Compares every presented signature with every expected one, all in constant time per pair. */
const anyMatches = (presented: readonly string[], expected: readonly string[]): boolean => {
  let matched = false;
  for (const candidate of presented) {
    const given = Buffer.from(candidate.toLowerCase(), 'hex');
    for (const wanted of expected) matched = timingSafeEqual(given, Buffer.from(wanted, 'hex')) || matched;
  }
  return matched;
};

/**
 * Verifies a received delivery. `secret` may list several secrets (a receiver between two
 * rotations holds both); the delivery is valid when `X-Signature`, or `X-Signature-Previous`
 * during a rotation overlap, matches any of them and `X-Timestamp` is within 300 s of `now`
 * (a `Date`, or milliseconds since the epoch). `rawBody` must be the bytes as received, before
 * any JSON parsing. Hex is accepted in either case.
 */
export const verifyWebhook = (
  secret: string | readonly string[],
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  now: Date | number = Date.now(),
): WebhookVerification => {
  const timestamp = headerOf(headers, SIGNATURE_HEADERS.timestamp)?.trim();
  const signature = headerOf(headers, SIGNATURE_HEADERS.signature)?.trim();
  if (timestamp === undefined || timestamp === '') return { valid: false, reason: 'missing_timestamp' };
  if (signature === undefined || signature === '') return { valid: false, reason: 'missing_signature' };
  if (!TIMESTAMP.test(timestamp)) return { valid: false, reason: 'malformed_timestamp' };
  const previous = headerOf(headers, SIGNATURE_HEADERS.previous)?.trim();
  const presented = [signature, ...(previous ? [previous] : [])];
  if (!presented.every((value) => SIGNATURE.test(value))) return { valid: false, reason: 'malformed_signature' };
  const seconds = Number(timestamp);
  const nowSeconds = Math.floor((typeof now === 'number' ? now : now.getTime()) / 1000);
  if (Math.abs(nowSeconds - seconds) > SIGNATURE_TOLERANCE_SECONDS) return { valid: false, reason: 'timestamp_out_of_tolerance' };
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const expected = secrets.map((candidate) => signWebhook(candidate, timestamp, rawBody));
  return anyMatches(presented, expected) ? { valid: true, timestamp: seconds } : { valid: false, reason: 'signature_mismatch' };
};
