import { iso } from '../domain/time.js';
import type { ExportDeps } from './export-deps.js';
import type { ExportRecord } from './export-record.js';
import { fileKeyOf, fileKeysOf } from './export-record.js';
import { EXPORT_SOURCES } from './export-sources.js';
import { exportSlots } from './exports.js';
import { leaseKeeper, whileHeld } from './job-lease.js';
import type { ExportUpload } from './ports.js';
import { readPages } from './read-pages.js';
import { rowWriter } from './row-writer.js';

/** What became of one claimed export. */
export type ExportOutcome =
  /** The file is committed and the export is `ready`. */
  | 'completed'
  /** The export is `failed`, with its `error`. */
  | 'failed'
  /** Another worker holds the export now (this claim's lease ran out); this one wrote nothing of it. */
  | 'lost'
  /** Stopped on request (the host shuts down): the export is `pending` again, for any worker. */
  | 'released';

export interface RunOptions {
  /** Aborting stops the export after its current page and hands it back (`released`). */
  readonly signal?: AbortSignal;
  /** Told the error behind a `failed` outcome (the export shows a reason without internals). */
  readonly onError?: (exportId: string, error: unknown) => void;
}

/**
 * Documents are turned into rows and written in slices of this many. A slice's rows and text
 * (some 20 KB) die young, in V8's nursery; a whole page's text (350 KB of 1,000 rows) went to the
 * large-object space, which only a full collection frees, and peak RSS grew with the export's
 * length. Pages of 250 documents (the default) keep what a write's wait holds alive small too.
 */
const SLICE_ROWS = 64;

type Written = { readonly kind: 'written'; readonly rows: number } | { readonly kind: 'lost' | 'released' };

/** Streams the export's rows from the store into the upload, page by page, renewing the lease. */
const writeRows = async (deps: ExportDeps, claim: ExportRecord, upload: ExportUpload, signal: AbortSignal | undefined): Promise<Written> => {
  const source = EXPORT_SOURCES[claim.type];
  const where = { org_id: claim.org_id, project_id: claim.project_id };
  const { start, end } = claim.date_range;
  const total = await deps.store.count(source.collection, { where, range: { field: source.timeField, gte: start, lte: end } });
  const writer = rowWriter(claim.format, upload.stream, { encoder: deps.exports.csv!, columns: source.columns });
  const lease = leaseKeeper(deps, claim, total);
  let rows = 0;
  const read = { collection: source.collection, where, field: source.timeField, start, end, pageSize: deps.exports.pageSize };
  for await (const page of readPages(deps.store, read)) {
    if (signal?.aborted === true) return { kind: 'released' };
    const now = deps.clock.now();
    for (let from = 0; from < page.length; from += SLICE_ROWS) {
      await writer.page(page.slice(from, from + SLICE_ROWS).map((doc) => source.row(doc, now)));
    }
    rows += page.length;
    if (!(await lease.renew(rows))) return { kind: 'lost' };
  }
  await writer.finish();
  return { kind: 'written', rows };
};

/** Deletes files, ignoring failures: what is left is deleted again by the purge. */
const removeQuietly = async (deps: ExportDeps, keys: readonly string[]): Promise<void> => {
  await Promise.all(keys.map((key) => deps.exports.storage.remove(key).catch(() => false)));
};

/** Marks the export ready with its committed file; the download expires `downloadTtlMs` later. */
const finishReady = async (deps: ExportDeps, claim: ExportRecord, key: string, rows: number, size: number): Promise<ExportOutcome> => {
  const now = deps.clock.now();
  // Whole seconds, as the signed link names them.
  const expiresAt = iso(new Date(Math.floor((now.getTime() + deps.exports.downloadTtlMs) / 1000) * 1000));
  const held = await whileHeld(deps, claim, () => ({
    status: 'ready', stage: 'purge', due_at: expiresAt, lease_owner: null, progress_percent: 100,
    row_count: rows, file_size_bytes: size, file_key: key, completed_at: iso(now), download_expires_at: expiresAt,
  }));
  if (!held) {
    await removeQuietly(deps, [key]);
    return 'lost';
  }
  await exportSlots.release(deps, claim.org_id, claim.id);
  // Files of earlier attempts (a host that stopped mid-export) are never served: gone at once.
  await removeQuietly(deps, fileKeysOf(claim).filter((other) => other !== key));
  return 'completed';
};

/** Marks the export failed; its files are removed by the purge, which is due at once. */
export const finishFailed = async (deps: ExportDeps, claim: ExportRecord, reason: string): Promise<ExportOutcome> => {
  const now = iso(deps.clock.now());
  const held = await whileHeld(deps, claim, () => ({ status: 'failed', stage: 'purge', due_at: now, lease_owner: null, error: reason }));
  if (!held) return 'lost';
  await exportSlots.release(deps, claim.org_id, claim.id);
  return 'failed';
};

/** Hands the export back to the queue, due at once, as if never claimed (the attempt is not an interruption). */
const release = async (deps: ExportDeps, claim: ExportRecord): Promise<ExportOutcome> => {
  const now = iso(deps.clock.now());
  const held = await whileHeld(deps, claim, () => ({ status: 'pending', stage: 'run', due_at: now, lease_owner: null, progress_percent: 0 }));
  return held ? 'released' : 'lost';
};

/** A reason to show the customer: what kind of failure, never a path or a stack. */
const reasonOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  const kind = typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
  return `The export could not be written${kind}; create a new export.`;
};

/**
 * Runs one claimed export to its end: reads its rows page by page from the store, writes them
 * through the export storage under this attempt's own key, commits the file and marks the
 * export ready. Any failure of the store or the storage fails the export (its reason shown);
 * a lost lease or a shutdown leaves the export to its next claim and this attempt's bytes
 * are discarded.
 */
export const runExport = async (deps: ExportDeps, claim: ExportRecord, options: RunOptions = {}): Promise<ExportOutcome> => {
  if (claim.format === 'csv' && deps.exports.csv === undefined) return finishFailed(deps, claim, 'This host has no CSV encoder configured; export as json instead.');
  const key = fileKeyOf(claim.id, claim.attempts, claim.format);
  let upload: ExportUpload | undefined;
  try {
    upload = await deps.exports.storage.create(key);
    const written = await writeRows(deps, claim, upload, options.signal);
    if (written.kind !== 'written') {
      await upload.abort();
      return written.kind === 'released' ? release(deps, claim) : 'lost';
    }
    const size = await upload.commit();
    return await finishReady(deps, claim, key, written.rows, size);
  } catch (error) {
    await upload?.abort().catch(() => undefined);
    options.onError?.(claim.id, error);
    return finishFailed(deps, claim, reasonOf(error));
  }
};
