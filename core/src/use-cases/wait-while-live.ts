import * as E from 'fp-ts/lib/Either.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { identityAlreadySquashed, identityExpired, identityNotFound } from '../domain/errors.js';
import type { IdentityRecord } from '../domain/identity.js';
import { isDue } from '../domain/identity.js';
import type { Waiters } from '../mail/waiters.js';
import { C } from '../store/collections.js';

/** How a read may wait: up to `waitSeconds` (0: not at all), ending early when `signal` fires. */
export interface WaitBudget {
  readonly waitSeconds: number;
  /** Fires when the caller went away (the HTTP request closed): the wait ends and frees its timer. */
  readonly signal?: AbortSignal;
}

/** The shortest sleep between checks of an identity about to expire (a clock that stands still must not spin). */
const MIN_EXPIRY_STEP_MS = 10;

export const currentIdentity = (deps: CoreDeps, id: string) => deps.store.get(C.identities, id) as Promise<IdentityRecord | undefined>;

/** Why an identity will never receive mail again, if it will not: squashed, or expired (its TTL elapsed, even if not recorded yet). */
export const deadState = (record: IdentityRecord, now: Date): DomainError | undefined => {
  if (record.status === 'squashed') return identityAlreadySquashed(record.id);
  if (record.status === 'expired' || isDue(record, now)) return identityExpired(record.id);
  return undefined;
};

/**
 * What `find` finds for the identity, waiting up to the budget for it to find something. A wait
 * (budget above 0) on an identity that is squashed or expired, or becomes so while waiting,
 * answers that state at once: no mail can come any more (ADR 0052). Expiry is noticed when the
 * expiry job records it (a change that wakes the wait) and, as a backstop, by a sleep that ends
 * when the TTL does. Without a wait, `find` reads whatever the identity holds, dead or alive.
 */
export const waitWhileLive = async <T>(
  deps: CoreDeps,
  waiters: Waiters,
  identity: IdentityRecord,
  find: (current: IdentityRecord) => Promise<T | undefined>,
  budget: WaitBudget,
): Promise<E.Either<DomainError, T | undefined>> => {
  if (budget.waitSeconds <= 0) return E.right(await find(identity));
  let expiresAt = identity.expires_at;
  const check = async (): Promise<E.Either<DomainError, T> | undefined> => {
    const current = await currentIdentity(deps, identity.id);
    if (current === undefined) return E.left(identityNotFound(identity.id));
    const dead = deadState(current, deps.clock.now());
    if (dead !== undefined) return E.left(dead);
    expiresAt = current.expires_at;
    const found = await find(current);
    return found === undefined ? undefined : E.right(found);
  };
  const deadline = Date.now() + budget.waitSeconds * 1000;
  for (;;) {
    const left = deadline - Date.now();
    const untilExpiry = Date.parse(expiresAt) - deps.clock.now().getTime();
    const step = Number.isFinite(untilExpiry) ? Math.min(left, Math.max(MIN_EXPIRY_STEP_MS, untilExpiry)) : left;
    const outcome = await waiters.until(identity.id, check, step, budget.signal);
    if (outcome !== undefined) return outcome;
    if (Date.now() >= deadline || budget.signal?.aborted === true || waiters.ended) return E.right(undefined);
  }
};
