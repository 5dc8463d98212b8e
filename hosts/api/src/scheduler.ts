import type { Ephemail } from '@ephemail/core';
import type { Logger } from 'pino';

/**
 * Runs the store-backed maintenance job (expiry, outbox sweep, purges of idempotency keys and of
 * short-lived records past their time, and deleting the files of expired export downloads) every
 * `intervalMs`. Ticks never overlap within a process; across processes the job's lease and
 * compare-and-set transitions keep the work single. Answers a function that stops it and waits
 * for a tick in progress.
 */
export const startMaintenance = (ephemail: Ephemail, owner: string, intervalMs: number, logger: Logger) => {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running !== undefined) return;
    running = ephemail.maintenance
      .tick(owner, { leaseMs: Math.max(intervalMs * 5, 5000) })
      .then(async (report) => {
        if (report.expired > 0 || report.outboxesFlushed > 0 || report.expiredRecordsPurged > 0) logger.info({ ...report }, 'maintenance');
        // The holder of the maintenance lease purges; each purge is also claimed on its own.
        if (!report.leader) return;
        const { purged } = await ephemail.exports.purgeTick();
        if (purged > 0) logger.info({ exportsPurged: purged }, 'maintenance');
      })
      .catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'maintenance tick failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return async (): Promise<void> => {
    clearInterval(timer);
    await running;
  };
};
