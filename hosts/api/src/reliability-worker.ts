import type { Ephemail, WebhookTransport } from '@ephemail/core';
import type { Logger } from 'pino';
import { spacedTicker } from './ticker.js';

export interface ReliabilityWorkerOptions {
  readonly owner: string;
  /** How often due runs (timeouts, runs other processes created) and the event log are looked at. */
  readonly intervalMs: number;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs reliability runs in this host process: the job ticker (triggers, timeouts), woken at once
 * when this process creates a run, and the mail relay, woken by every event this process hears
 * of, so a run completes as soon as its mail is recorded. The timer catches the rest: deadlines,
 * runs and mail of other processes. Across processes, leases and compare-and-set share the work.
 */
export const startReliabilityWorker = (ephemail: Ephemail, transport: WebhookTransport, options: ReliabilityWorkerOptions, logger: Logger) => {
  const warn = (what: string) => (error: unknown) => logger.warn({ err: messageOf(error) }, what);
  const jobs = spacedTicker(async () => {
    const report = await ephemail.reliability.jobsTick(options.owner, transport);
    if (report.failed > 0 || report.timedOut > 0) logger.info({ ...report }, 'reliability runs');
  }, warn('reliability run tick failed'));
  const mail = spacedTicker(() => ephemail.reliability.mailTick(options.owner), warn('reliability mail tick failed'));
  // Consumers' notifications follow the same mail: their relay runs beside the runs' one.
  const notify = spacedTicker(() => ephemail.consumer.notifyTick(options.owner), warn('consumer notification tick failed'));
  // Marketplace deployments end on the same events (a first extraction, an identity's end).
  const outcomes = spacedTicker(() => ephemail.marketplace.outcomesTick(options.owner), warn('marketplace outcomes tick failed'));
  const timer = setInterval(() => {
    jobs.tick();
    mail.tick();
    notify.tick();
    outcomes.tick();
  }, options.intervalMs);
  timer.unref();
  const offCreated = ephemail.reliability.onCreated(() => jobs.tick());
  const offEvents = ephemail.events.subscribe((event) => {
    if (event.type === 'email.received') mail.tick();
    if (event.type === 'extraction.completed') {
      notify.tick();
      outcomes.tick();
    }
  });
  jobs.tick();
  mail.tick();
  notify.tick();
  outcomes.tick();
  return async (): Promise<void> => {
    clearInterval(timer);
    offCreated();
    offEvents();
    await Promise.all([jobs.stop(), mail.stop(), notify.stop(), outcomes.stop()]);
  };
};
