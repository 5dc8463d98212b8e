import { ProviderError } from '@ephemail/core';

/**
 * Stripe's error classes, by the `type` the library gives each (its class name). Read as a
 * string rather than with `instanceof`: the host may load the library as CommonJS while this
 * package loads it as ESM, and then the classes are not the same objects.
 */
const RETRYABLE = new Set(['StripeConnectionError', 'StripeRateLimitError', 'StripeAPIError']);

/**
 * Anything a Stripe call threw, as the port's error. Connection trouble, rate limits and
 * Stripe's own failures may pass; a request Stripe refused (invalid, unauthenticated, not
 * permitted, a card declined, an idempotency clash) will be refused again.
 */
export const toProviderError = (error: unknown, call: string): ProviderError => {
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  const status = typeof error === 'object' && error !== null ? (error as { statusCode?: unknown }).statusCode : undefined;
  const detail = error instanceof Error ? error.message : String(error);
  // A 5xx is Stripe's fault whatever class the library chose for it.
  const retryable = (typeof type === 'string' && RETRYABLE.has(type)) || (typeof status === 'number' && status >= 500);
  const label = typeof type === 'string' ? type : 'error';
  const failure = new ProviderError(`stripe ${call} failed (${label}${typeof status === 'number' ? ` ${status}` : ''}): ${detail}`, retryable);
  failure.cause = error;
  return failure;
};
