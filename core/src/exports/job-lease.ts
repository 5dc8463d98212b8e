import { iso, isoPlus } from '../domain/time.js';
import { C } from '../store/collections.js';
import { keep, updateWithRetry, withoutVersion, write } from '../store/compare-and-set.js';
import type { ExportDeps } from './export-deps.js';
import type { ExportRecord } from './export-record.js';

/**
 * Writes `patch` over the export only while this claim still holds it: processing, by the same
 * owner, under the same attempt. Answers whether it did. A claim whose lease ran out and was
 * taken by another worker (or by this one again) finds the export moved on and writes nothing,
 * so a slow worker that wakes up late can never overwrite its successor's progress or result.
 */
export const whileHeld = async (deps: ExportDeps, claim: ExportRecord, patch: (current: ExportRecord) => Partial<ExportRecord>): Promise<boolean> => {
  const outcome = await updateWithRetry<ExportRecord, boolean>(deps.store, C.exports, claim.id, (current) => {
    const held = current.status === 'processing' && current.lease_owner === claim.lease_owner && current.attempts === claim.attempts;
    if (!held) return keep(false);
    const record = withoutVersion<ExportRecord>(current);
    return write({ ...record, ...patch(record), updated_at: iso(deps.clock.now()) }, true);
  });
  return outcome?.result === true;
};

/**
 * Keeps a claim's lease alive and its `progress_percent` current while it runs: a write when the
 * percent moves or a third of the lease has gone by, not after every page. The percent stops at
 * 99 until the file is committed (rows added after the count can push it past the total).
 */
export const leaseKeeper = (deps: ExportDeps, claim: ExportRecord, total: number) => {
  let shown = 0;
  let renewedAt = deps.clock.now().getTime();
  return {
    /** Records progress after `rows` rows; answers false when the claim no longer holds the export. */
    renew: async (rows: number): Promise<boolean> => {
      const percent = total === 0 ? 0 : Math.min(99, Math.floor((rows * 100) / total));
      const now = deps.clock.now();
      if (percent === shown && now.getTime() - renewedAt < deps.exports.leaseMs / 3) return true;
      shown = percent;
      renewedAt = now.getTime();
      return whileHeld(deps, claim, () => ({ progress_percent: percent, due_at: isoPlus(now, deps.exports.leaseMs) }));
    },
  };
};
