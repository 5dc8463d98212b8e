import type { DeliverReport, Ephemail, WebhookTransport } from '@ephemail/core';
import type { Logger } from 'pino';

export interface WebhookWorkerOptions {
  readonly owner: string;
  readonly intervalMs: number;
  /** Attempts in flight at once in this process. */
  readonly concurrency: number;
  readonly timeoutMs: number;
}

const MIN_SPACING_MS = 25;
const DISPATCH_BATCH = 200;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs webhook delivery in this host process: the dispatcher (event log → delivery jobs) and a
 * delivery pool that keeps up to `concurrency` attempts in flight. The dispatcher hands fresh
 * jobs straight to the pool while it has room (inserted already claimed, posted at once); the
 * rest wait in the store, and the pool refills from them whenever slots free up, on the timer
 * and after each dispatch. Events wake the dispatcher at once while it has endpoints to feed;
 * while the last events it read went to no endpoint, only the timer does. Dispatch ticks never
 * overlap within a process; across processes the relay lease and job leases share the work.
 * Answers a function that stops it and waits for the dispatch tick and the attempts in flight.
 */
export const startWebhookWorker = (ephemail: Ephemail, transport: WebhookTransport, options: WebhookWorkerOptions, logger: Logger) => {
  const pool = ephemail.webhooks.deliveryPool(options.owner, transport, {
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    onError: (error) => logger.warn({ err: messageOf(error) }, 'webhook delivery failed'),
  });
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let reported: DeliverReport = pool.report();
  // Set while the events of the last tick went to no endpoint (none is subscribed): new events
  // then wait for the timer instead of each waking the relay, which would read and move the
  // cursor tens of times a second for nobody. The first tick that enqueues a job clears it.
  let quiet = false;
  const dispatch = async () => {
    const report = await ephemail.webhooks.dispatchTick(options.owner, { batch: DISPATCH_BATCH, handoff: pool });
    if (report.handled > 0) quiet = report.enqueued === 0;
    // Jobs the pool had no room for are pending in the store; more events may be waiting too.
    if (report.enqueued > report.handedOff) void pool.fill();
    if (report.handled >= DISPATCH_BATCH) again = true;
  };
  const tick = (): void => {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = dispatch()
      .catch((error: unknown) => logger.warn({ err: messageOf(error) }, 'webhook dispatch failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          // Wake-ups during a tick are served together a moment later, not one tick per event.
          setTimeout(tick, MIN_SPACING_MS).unref();
        }
      });
  };
  const warnOfFailures = (): void => {
    const now = pool.report();
    if (now.failed > reported.failed) logger.warn({ ...now, newlyFailed: now.failed - reported.failed }, 'webhook deliveries failed');
    reported = now;
  };
  const timer = setInterval(() => {
    tick();
    // Retries falling due, jobs other processes enqueued, and leases that ran out.
    void pool.fill();
    warnOfFailures();
  }, options.intervalMs);
  timer.unref();
  const unsubscribe = ephemail.events.subscribe(() => {
    if (!quiet) tick();
  });
  tick();
  void pool.fill();
  return async (): Promise<void> => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    await running;
    await pool.close();
    warnOfFailures();
  };
};
