import type { WebhookRecord } from './endpoint.js';
import { secretContext } from './endpoint.js';
import type { SecretCache } from './secret-cache.js';
import { signWebhook } from './signature.js';

export const USER_AGENT = 'ephemail-webhooks/1';

export type SignedHeaders =
  | { readonly ok: true; readonly headers: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly error: string };

/**
 * The headers of one attempt, signed at `now` (a fresh `X-Timestamp` per attempt, so retries and
 * replays stay within receivers' tolerance). During a rotation overlap the replaced secret signs
 * `X-Signature-Previous` too. A secret that cannot be opened (the data key changed) fails the
 * attempt with the reason, rather than sending an unsigned delivery.
 */
export const signedHeaders = (secrets: SecretCache, endpoint: WebhookRecord, body: string, now: Date): SignedHeaders => {
  const current = secrets.open(endpoint.secret_sealed, secretContext(endpoint.id));
  if (!current.ok) return { ok: false, error: `cannot sign: ${current.reason}` };
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-timestamp': String(timestamp),
    'x-signature': signWebhook(current.secret, timestamp, body),
  };
  const overlap = endpoint.previous_secret_sealed !== null && endpoint.previous_secret_until !== null && now.toISOString() < endpoint.previous_secret_until;
  if (overlap) {
    const previous = secrets.open(endpoint.previous_secret_sealed!, secretContext(endpoint.id));
    if (previous.ok) headers['x-signature-previous'] = signWebhook(previous.secret, timestamp, body);
  }
  return { ok: true, headers };
};
