import type { Ephemail, WebhookTransport } from '@ephemail/core';
import type { Logger } from 'pino';

export interface WebhookWorkerOptions {
  readonly owner: string;
  readonly intervalMs: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
}

const MIN_SPACING_MS = 25;

/**
 * Runs webhook delivery in this host process: the dispatcher (event log → delivery jobs) and the
 * delivery of due jobs, on a timer and, as a fast path, right after this process logged an event.
 * Ticks never overlap within a process; across processes the relay lease and job leases share
 * the work. Answers a function that stops it and waits for the tick in progress.
 */
export const startWebhookWorker = (ephemail: Ephemail, transport: WebhookTransport, options: WebhookWorkerOptions, logger: Logger) => {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const once = async () => {
    await ephemail.webhooks.dispatchTick(options.owner);
    const report = await ephemail.webhooks.deliverTick(options.owner, transport, { concurrency: options.concurrency, timeoutMs: options.timeoutMs });
    if (report.failed > 0) logger.warn({ ...report }, 'webhook deliveries failed');
  };
  const tick = (): void => {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = once()
      .catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'webhook tick failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          // Wake-ups during a tick are served together a moment later, not one tick per event.
          setTimeout(tick, MIN_SPACING_MS).unref();
        }
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  const unsubscribe = ephemail.events.subscribe(() => tick());
  tick();
  return async (): Promise<void> => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    await running;
  };
};
