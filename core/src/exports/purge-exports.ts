import { iso, isoPlus } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { keep, updateWithRetry, withoutVersion, write } from '../store/compare-and-set.js';
import { dueBy } from '../store/due-by.js';
import type { ExportDeps } from './export-deps.js';
import type { ExportRecord } from './export-record.js';
import { fileKeysOf } from './export-record.js';
import { exportSlots } from './exports.js';

export interface ExportPurgeReport {
  /** Exports whose files this pass deleted: ready ones whose download expired, and failed ones. */
  readonly purged: number;
}

type Stored = ExportRecord & StoredDocument;

/** Takes a due purge for a lease's length by compare-and-set, so two hosts never do the same one. */
const claimPurge = async (deps: ExportDeps, doc: Stored): Promise<boolean> => {
  const next: ExportRecord = { ...withoutVersion<ExportRecord>(doc), due_at: isoPlus(deps.clock.now(), deps.exports.leaseMs) };
  return deps.store.replace(C.exports, next, doc.version);
};

/**
 * Deletes the files of every attempt (a crash may have left an earlier attempt's bytes), then
 * records that the file is gone. A host that stops in between leaves the purge due again when
 * its lease ends, and removing twice is harmless. The record itself stays: the export still
 * answers, `ready` with `download_available: false` (or `failed`).
 */
const purgeOne = async (deps: ExportDeps, doc: Stored): Promise<boolean> => {
  if (!(await claimPurge(deps, doc))) return false;
  await Promise.all(fileKeysOf(doc).map((key) => deps.exports.storage.remove(key)));
  const now = iso(deps.clock.now());
  await updateWithRetry<ExportRecord, undefined>(deps.store, C.exports, doc.id, (current) =>
    current.stage === 'purge' ? write({ ...withoutVersion<ExportRecord>(current), stage: 'done', due_at: '', file_removed_at: now, updated_at: now }, undefined) : keep(undefined),
  );
  // A slot left behind by a host that stopped between finishing the export and giving it back.
  await exportSlots.release(deps, doc.org_id, doc.id);
  return true;
};

/**
 * One pass of the maintenance job for exports: deletes the files of ready exports whose
 * download has expired, and of failed ones. Safe from any number of hosts at once.
 */
export const purgeExportsTick = async (deps: ExportDeps, options: { readonly batch?: number } = {}): Promise<ExportPurgeReport> => {
  const due = (await deps.store.find(C.exports, {
    where: { stage: 'purge' },
    range: dueBy('due_at', deps.clock.now()),
    sort: { field: 'due_at', direction: 'asc' },
    limit: options.batch ?? 100,
  })) as Stored[];
  let purged = 0;
  for (const doc of due) if (await purgeOne(deps, doc)) purged += 1;
  return { purged };
};
