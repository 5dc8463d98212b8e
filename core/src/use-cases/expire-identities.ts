import * as E from 'fp-ts/lib/Either.js';
import type { CoreDeps } from '../deps.js';
import type { IdentityRecord } from '../domain/identity.js';
import { LIVE_STATUSES } from '../domain/identity.js';
import { trialClockTick } from '../billing/trials.js';
import { squashRecord } from './identities.js';
import { C } from '../store/collections.js';
import { dueBy } from '../store/due-by.js';
import { acquireLease } from '../store/leases.js';
import { sweepOutboxes } from '../store/outbox.js';
import { expireNow } from './identity-access.js';
import { purgeIdempotencyKeys } from './idempotency.js';
import { purgeExpiredRecords } from './purge-expired.js';

export interface MaintenanceReport {
  /** Whether this process held the maintenance lease for this tick. */
  readonly leader: boolean;
  readonly expired: number;
  readonly outboxesFlushed: number;
  readonly idempotencyKeysPurged: number;
  /** Rate-limit windows, used grants, free-tier address places and free identity records past their time. */
  readonly expiredRecordsPurged: number;
  /** Trials that ran out (ACTIVE → EXPIRED), and those whose grace ran out (resources deleted). */
  readonly trialsExpired: number;
  readonly trialsPurged: number;
}

const LEASE = 'maintenance';

/**
 * One tick of the store-backed maintenance job: expires identities whose TTL elapsed, flushes
 * outboxes a crash left behind, purges old idempotency keys and short-lived records past their
 * time (purge-expired.ts). Any number of processes may tick side by side: the lease keeps them
 * from doing the same work, and each expiry is a compare-and-set, so even two holders (a lease
 * that ran out mid-tick) never emit an event twice.
 */
export const runMaintenanceTick = async (
  deps: CoreDeps,
  owner: string,
  options: { readonly leaseMs?: number; readonly batch?: number } = {},
): Promise<MaintenanceReport> => {
  if (!(await acquireLease(deps, LEASE, owner, options.leaseMs ?? 30_000))) {
    return { leader: false, expired: 0, outboxesFlushed: 0, idempotencyKeysPurged: 0, expiredRecordsPurged: 0, trialsExpired: 0, trialsPurged: 0 };
  }
  const due = await deps.store.find(C.identities, {
    where: { status: { in: [...LIVE_STATUSES] } },
    range: dueBy('expires_at', deps.clock.now()),
    sort: { field: 'expires_at', direction: 'asc' },
    limit: options.batch ?? 500,
  });
  let expired = 0;
  for (const doc of due) {
    const outcome = await expireNow(deps, doc.id);
    if (E.isRight(outcome) && outcome.right.status === 'expired' && doc.status !== 'expired') expired += 1;
  }
  const outboxesFlushed = await sweepOutboxes(deps);
  const idempotencyKeysPurged = await purgeIdempotencyKeys(deps);
  const expiredRecordsPurged = await purgeExpiredRecords(deps);
  const trials = await trialClockTick(deps, (orgId, since) => squashTrialIdentities(deps, orgId, since));
  return { leader: true, expired, outboxesFlushed, idempotencyKeysPurged, expiredRecordsPurged, trialsExpired: trials.expired, trialsPurged: trials.purged };
};

/** A trial's resources, deleted when its grace runs out: the live identities made since it began. */
const squashTrialIdentities = async (deps: CoreDeps, orgId: string, since: string): Promise<number> => {
  const live = (await deps.store.find(C.identities, { where: { org_id: orgId, status: { in: [...LIVE_STATUSES] } } })) as unknown as IdentityRecord[];
  let squashed = 0;
  for (const identity of live.filter((i) => i.created_at >= since)) {
    if (E.isRight(await squashRecord(deps, identity, 'trial_expired'))) squashed += 1;
  }
  return squashed;
};
