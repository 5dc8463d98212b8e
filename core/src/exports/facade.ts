import type { CoreDeps } from '../deps.js';
import { run } from '../use-cases/run.js';
import { exportDeps, type ExportOptions } from './export-deps.js';
import { claimExports, exportJobsTick } from './export-jobs.js';
import type { ExportRecord } from './export-record.js';
import { createExport, getExport, openDownload } from './exports.js';
import { purgeExportsTick } from './purge-exports.js';
import { runExport, type RunOptions } from './run-export.js';

/**
 * The `exports` section of the service: create and read exports, open a signed download, and
 * the two jobs a host runs for them (writing files, purging expired ones).
 */
export const exportsFacade = (deps: CoreDeps, options: ExportOptions) => {
  const listeners = new Set<() => void>();
  const edeps = exportDeps(deps, options, () => listeners.forEach((listener) => listener()));
  return {
    create: run(createExport(edeps)),
    get: run(getExport(edeps)),
    /** The file behind a signed link (no credential); check it before reading anything. */
    download: run(openDownload(edeps)),
    /** Claims up to `max` due exports for `owner` (compare-and-set: one worker each). */
    claim: (owner: string, max: number): Promise<ExportRecord[]> => claimExports(edeps, owner, max),
    /** Runs one claimed export to its end (ready, failed, lost to another worker, or released). */
    run: (claim: ExportRecord, runOptions?: RunOptions) => runExport(edeps, claim, runOptions),
    /** Claims up to `max` (default 1) due exports and runs them; any number of workers. */
    jobsTick: (owner: string, tickOptions?: RunOptions & { readonly max?: number }) => exportJobsTick(edeps, owner, tickOptions),
    /** Deletes the files of expired downloads and failed exports; any number of hosts. */
    purgeTick: (purgeOptions?: { readonly batch?: number }) => purgeExportsTick(edeps, purgeOptions),
    /** Called when an export is created in this process, so its worker claims it at once. */
    onCreated: (listener: () => void): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
