import type { CoreDeps } from '../deps.js';
import { C } from '../store/collections.js';
import { dueBy } from '../store/due-by.js';

/**
 * How long a free identity's record outlives its identity: for this day a reader with its token
 * is told it expired (410) rather than that it never existed (404).
 */
export const FREE_RECORD_RETENTION_MS = 24 * 3_600_000;

/** Collections the purge sweeps, and how long after `expires_at` a document goes. */
const SWEPT: readonly { readonly collection: string; readonly afterMs: number }[] = [
  // Rate-limit windows, used grants and free-tier address places: worthless once expired.
  { collection: C.expiring, afterMs: 0 },
  { collection: C.freeIdentities, afterMs: FREE_RECORD_RETENTION_MS },
];

/**
 * Deletes, oldest first, up to `limit` documents per swept collection whose time is over;
 * answers how many. Each removal is a compare-and-set on the version read, so a record renewed
 * meanwhile (a free-tier address place taken over) is left alone. Run by the maintenance job.
 */
export const purgeExpiredRecords = async (deps: CoreDeps, limit = 1000): Promise<number> => {
  let removed = 0;
  for (const { collection, afterMs } of SWEPT) {
    const stale = await deps.store.find(collection, {
      range: dueBy('expires_at', new Date(deps.clock.now().getTime() - afterMs)),
      sort: { field: 'expires_at', direction: 'asc' },
      limit,
    });
    for (const doc of stale) if (await deps.store.remove(collection, doc.id, doc.version)) removed += 1;
  }
  return removed;
};
