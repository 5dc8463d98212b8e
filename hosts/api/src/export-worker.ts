import type { Ephemail, ExportRecord } from '@ephemail/core';
import type { Logger } from 'pino';

export interface ExportWorkerOptions {
  readonly owner: string;
  /** How often exports created by other processes (and leases that ran out) are looked for. */
  readonly intervalMs: number;
  /** Exports this process writes at once. */
  readonly concurrency: number;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Runs one claimed export to its end, logging how it ended (never rejects). */
const runLogged = (ephemail: Ephemail, claim: ExportRecord, signal: AbortSignal, logger: Logger): Promise<void> =>
  ephemail.exports
    .run(claim, { signal, onError: (exportId, error) => logger.warn({ exportId, err: messageOf(error) }, 'export failed') })
    .then(
      (outcome) => logger.info({ exportId: claim.id, type: claim.type, format: claim.format, outcome }, 'export'),
      (error: unknown) => logger.warn({ exportId: claim.id, err: messageOf(error) }, 'export stopped'),
    );

/**
 * Writes exports in this host process: claims due ones (at once when this process creates one,
 * on a timer for the rest) up to `concurrency` at a time and runs each in the background. Across
 * processes, the store's compare-and-set claims and leases share them. Stopping asks the running
 * exports to hand themselves back (pending, for any host) and waits for them.
 */
export const startExportWorker = (ephemail: Ephemail, options: ExportWorkerOptions, logger: Logger) => {
  const stop = new AbortController();
  const running = new Set<Promise<void>>();
  let claiming: Promise<void> | undefined;
  let again = false;
  const runOne = (claim: ExportRecord): void => {
    const job = runLogged(ephemail, claim, stop.signal, logger).finally(() => {
      running.delete(job);
      tick();
    });
    running.add(job);
  };
  const tick = (): void => {
    const free = options.concurrency - running.size;
    if (stop.signal.aborted || free <= 0) return;
    if (claiming !== undefined) {
      again = true;
      return;
    }
    claiming = ephemail.exports
      .claim(options.owner, free)
      // Claimed after a stop began, an export still runs: it sees the stop and hands itself back.
      .then((claimed) => claimed.forEach(runOne), (error: unknown) => logger.warn({ err: messageOf(error) }, 'export claim failed'))
      .finally(() => {
        claiming = undefined;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  const offCreated = ephemail.exports.onCreated(tick);
  tick();
  return async (): Promise<void> => {
    clearInterval(timer);
    offCreated();
    stop.abort();
    await claiming;
    await Promise.allSettled([...running]);
  };
};
