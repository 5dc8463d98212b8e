import type { Principal } from '../auth/principal.js';
import type { RevealOption } from '../auth/reveal.js';

/**
 * A consumer owns the identities of their personal project, so asking is enough to see their
 * secrets raw (ADR 0053): the session holds no `secrets:read`, and a read of the consumer's own
 * gains it for itself only when `reveal` is asked for, then decides like every read
 * (`decideReveal`). Unasked, the read is redacted exactly as the agent API's, so a page or a
 * screen share shows no code by accident. Only a consumer session is an owner: an agent
 * credential passed here keeps its own scopes.
 */
export const asOwner = (principal: Principal, options: RevealOption | undefined): Principal =>
  options?.reveal === true && principal.credential.kind === 'consumer_session' && !principal.scopes.includes('secrets:read')
    ? { ...principal, scopes: [...principal.scopes, 'secrets:read'] }
    : principal;
