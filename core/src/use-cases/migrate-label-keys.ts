import type { CoreDeps } from '../deps.js';
import type { IdentityRecord } from '../domain/identity.js';
import { labelKey } from '../domain/label-key.js';
import { iso } from '../domain/time.js';
import { C } from '../store/collections.js';
import { keep, updateWithRetry, write } from '../store/compare-and-set.js';

/** Marks a store whose identities all have their `label_key` (a record in `counters`). */
const MARK = 'migration:label-keys:1';
const PAGE = 500;

/**
 * Identities stored before label search have no `label_key`, so a search would never find them.
 * Once per store, at start-up, each gets it, page by page in creation order (a new identity is
 * created with it, so one made meanwhile needs nothing). Each write is a compare-and-set that
 * keeps a key already there: hosts starting together, or a start after a crash, write nothing
 * twice, and the mark is set only when every page is done.
 */
export const migrateLabelKeys = async (deps: CoreDeps): Promise<void> => {
  if ((await deps.store.get(C.counters, MARK)) !== undefined) return;
  for (let offset = 0; ; offset += PAGE) {
    const page = (await deps.store.find(C.identities, { sort: { field: 'created_at', direction: 'asc' }, limit: PAGE, offset })) as unknown as IdentityRecord[];
    for (const identity of page) {
      if (identity.label_key !== undefined) continue;
      await updateWithRetry<IdentityRecord, undefined>(deps.store, C.identities, identity.id, (current) =>
        current.label_key === undefined ? write({ ...current, label_key: labelKey(current.label) }, undefined) : keep(undefined),
      );
    }
    if (page.length < PAGE) break;
  }
  await deps.store.insert(C.counters, { id: MARK, done_at: iso(deps.clock.now()) });
};
