import * as E from 'fp-ts/lib/Either.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { identityNotFound } from '../domain/errors.js';
import type { IdentityRecord } from '../domain/identity.js';
import { expire, isDue } from '../domain/identity.js';
import { C } from '../store/collections.js';
import { applyTransition } from '../store/outbox.js';

/**
 * Loads an identity of the caller's project. Another tenant's id answers exactly like an unknown
 * one. An identity whose TTL has elapsed is expired on the spot (with its event), so reads never
 * show a stale live status while the expiry job has not run yet.
 */
export const loadIdentity = async (
  deps: CoreDeps,
  principal: Pick<Principal, 'orgId' | 'projectId'>,
  id: string,
): Promise<E.Either<DomainError, IdentityRecord>> => {
  const record = (await deps.store.get(C.identities, id)) as IdentityRecord | undefined;
  if (record === undefined || record.org_id !== principal.orgId || record.project_id !== principal.projectId) {
    return E.left(identityNotFound(id));
  }
  return isDue(record, deps.clock.now()) ? expireNow(deps, record.id) : E.right(record);
};

/** Moves a due identity to `expired`; a no-op when another process did it first. */
export const expireNow = (deps: CoreDeps, id: string): Promise<E.Either<DomainError, IdentityRecord>> =>
  applyTransition(deps, id, (current) => E.right(expire(current, deps.clock.now())));
