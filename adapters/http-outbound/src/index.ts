export { classifyAddress, type AddressVerdict } from './address-policy.js';
export { checkUrl, MAX_URL_LENGTH, type Target, type UrlCheck } from './url-check.js';
export { createDnsResolver, systemResolver, type ResolvedAddress, type Resolver } from './resolver.js';
export {
  guardedRequest,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type FailureKind,
  type GuardedRequest,
  type GuardedResponse,
  type GuardOptions,
} from './guarded-request.js';
export { createGuardedClient, createUrlGuard, guardedPost, type GuardedClient, type GuardedClientOptions } from './guarded-client.js';
