import type { CallbackVerdict } from '@ephemail/core';
import type Stripe from 'stripe';
import { toCallbackVerdict } from './to-callback-verdict.js';

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

const invalid = (reason: string): CallbackVerdict => ({ kind: 'invalid', reason });

/** Node lower-cases incoming header names; other callers may not. */
const signatureHeader = (headers: Headers): string | readonly string[] | undefined =>
  headers['stripe-signature'] ?? Object.entries(headers).find(([name]) => name.toLowerCase() === 'stripe-signature')?.[1];

/**
 * Verifies a webhook with the library's own check (HMAC over `timestamp.body`, within the
 * tolerance) and reads the event. Never throws: whatever goes wrong is an `invalid` verdict.
 */
export const verifyStripeCallback = (
  stripe: Stripe,
  secret: string,
  toleranceSeconds: number,
  rawBody: Buffer,
  headers: Headers,
): CallbackVerdict => {
  const header = signatureHeader(headers);
  if (header === undefined || header.length === 0) return invalid('missing stripe-signature header');
  if (typeof header !== 'string') return invalid('more than one stripe-signature header');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, header, secret, toleranceSeconds);
  } catch (error) {
    return invalid(error instanceof Error ? error.message : 'signature does not verify');
  }
  try {
    return toCallbackVerdict(event);
  } catch {
    // Signed by Stripe but not in a shape this adapter reads (a field missing or renamed).
    return invalid(`unreadable ${String(event.type)} event ${String(event.id)}`);
  }
};
