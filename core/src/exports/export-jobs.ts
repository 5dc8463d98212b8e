import { iso, isoPlus } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { withoutVersion } from '../store/compare-and-set.js';
import { dueBy } from '../store/due-by.js';
import type { ExportDeps } from './export-deps.js';
import type { ExportRecord } from './export-record.js';
import { finishFailed, runExport, type ExportOutcome, type RunOptions } from './run-export.js';

/**
 * A claim that finds the export still processing under a lease that ran out counts one
 * interruption (a host stopped mid-export). After this many the export fails instead of being
 * run again: something about it (its size, a bad row) may be what stops the hosts.
 */
export const MAX_INTERRUPTIONS = 3;

export interface ExportJobReport {
  readonly completed: number;
  readonly failed: number;
  readonly lost: number;
  readonly released: number;
}

type Stored = ExportRecord & StoredDocument;

/** Exports due to run: pending ones, and processing ones whose lease has run out; oldest first. */
const dueExports = async (deps: ExportDeps, limit: number): Promise<Stored[]> =>
  (await deps.store.find(C.exports, {
    where: { stage: 'run' },
    range: dueBy('due_at', deps.clock.now()),
    sort: { field: 'due_at', direction: 'asc' },
    limit,
  })) as Stored[];

/**
 * Claims one due export for `owner`: compare-and-set on the version it was read at, so of N
 * workers that read it, exactly one gets it. The claim starts a new attempt under a lease of
 * `leaseMs`; an export interrupted too often is failed instead.
 */
const claimOne = async (deps: ExportDeps, doc: Stored, owner: string): Promise<ExportRecord | undefined> => {
  const now = deps.clock.now();
  const interruptions = doc.interruptions + (doc.status === 'processing' ? 1 : 0);
  const next: ExportRecord = {
    ...withoutVersion<ExportRecord>(doc),
    status: 'processing',
    lease_owner: owner,
    attempts: doc.attempts + 1,
    interruptions,
    progress_percent: 0,
    due_at: isoPlus(now, deps.exports.leaseMs),
    updated_at: iso(now),
  };
  if (!(await deps.store.replace(C.exports, next, doc.version))) return undefined;
  if (interruptions < MAX_INTERRUPTIONS) return next;
  await finishFailed(deps, next, `The export was interrupted ${interruptions} times (a host stopped while writing it); create a new export, perhaps over a shorter date range.`);
  return undefined;
};

/** Claims up to `max` due exports for `owner`; each claimed one is this worker's to run. */
export const claimExports = async (deps: ExportDeps, owner: string, max: number): Promise<ExportRecord[]> => {
  if (max < 1) return [];
  const claimed: ExportRecord[] = [];
  // Read a few more than wanted: other workers may win some of them.
  for (const doc of await dueExports(deps, max * 2)) {
    if (claimed.length >= max) break;
    const claim = await claimOne(deps, doc, owner);
    if (claim !== undefined) claimed.push(claim);
  }
  return claimed;
};

/**
 * One pass of an export worker: claims up to `max` due exports (default 1) and runs them to their
 * end, side by side. Safe from any number of workers and processes at once.
 */
export const exportJobsTick = async (deps: ExportDeps, owner: string, options: RunOptions & { readonly max?: number } = {}): Promise<ExportJobReport> => {
  const claimed = await claimExports(deps, owner, options.max ?? 1);
  const outcomes: ExportOutcome[] = await Promise.all(claimed.map((claim) => runExport(deps, claim, options)));
  const count = (outcome: ExportOutcome) => outcomes.filter((o) => o === outcome).length;
  return { completed: count('completed'), failed: count('failed'), lost: count('lost'), released: count('released') };
};
