import * as E from 'fp-ts/lib/Either.js';
import type { CoreDeps } from '../deps.js';
import { authenticateSession } from './accounts.js';
import type { ConsumerPlan } from './consumer-record.js';

export type SessionState = { readonly signed_in: false } | { readonly signed_in: true; readonly email: string; readonly plan: ConsumerPlan };

/**
 * Whether a session token (or none) signs someone in, as an answer rather than an error: a page
 * asks this before anything else, and a visitor who is not signed in is not a failure. Missing,
 * unknown, ended and logged-out sessions all answer `signed_in: false`, saying no more.
 */
export const sessionState = async (deps: CoreDeps, token: string | undefined): Promise<SessionState> => {
  const found = await authenticateSession(deps, token);
  return E.isRight(found) ? { signed_in: true, email: found.right.consumer.email, plan: found.right.consumer.plan } : { signed_in: false };
};
