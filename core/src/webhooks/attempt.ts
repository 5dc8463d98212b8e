import { webhookAttemptSeries } from '../metrics/labels.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { addToCounter } from '../store/counter.js';
import { dueBy } from '../store/due-by.js';
import { withoutVersion } from '../store/compare-and-set.js';
import { afterAttempt, isAbandoned, MAX_ABANDONED_CLAIMS } from './attempt-outcome.js';
import { attemptRecordOf, type AttemptRecord } from './attempt-record.js';
import type { DeliveryJob } from './delivery-job.js';
import { claimJob, closeJob } from './delivery-job.js';
import type { WebhookRecord } from './endpoint.js';
import type { WebhookTransport } from './ports.js';
import { signedHeaders } from './signed-headers.js';
import type { WebhookDeps } from './webhook-deps.js';

/** The store counter of deliveries given up as failed (the `ephemail_webhook_deliveries_failed` gauge). */
export const FAILED_DELIVERIES_COUNTER = 'webhook_deliveries_failed';

/** Counts a job closed as failed; a metric, so a store that fails here fails nothing else. */
const countFailed = (deps: WebhookDeps): Promise<unknown> => addToCounter(deps, FAILED_DELIVERIES_COUNTER, 1).catch(() => undefined);

/** What one worker needs to claim, attempt and record jobs. */
export interface AttemptContext {
  readonly deps: WebhookDeps;
  readonly owner: string;
  readonly transport: WebhookTransport;
  readonly timeoutMs: number;
  readonly leaseMs: number;
}

/** How one claimed job ended: its state after the attempt, or `lost` (the lease passed on). */
export type JobOutcome = 'lost' | DeliveryJob['status'];

/**
 * Jobs due now, and jobs whose worker's lease ran out (their `next_attempt_at` is the lease end).
 */
export const findDue = (deps: WebhookDeps, limit: number, offset = 0): Promise<StoredDocument[]> =>
  deps.store.find(C.webhookDeliveries, {
    where: { open: true },
    range: dueBy('next_attempt_at', deps.clock.now()),
    sort: { field: 'next_attempt_at', direction: 'asc' },
    limit,
    ...(offset > 0 ? { offset } : {}),
  });

/** A job this worker holds, with the stored version its outcome will be recorded against. */
export interface Claimed {
  readonly job: DeliveryJob;
  readonly version: number;
}

/**
 * Claims one due job by compare-and-set. Answers `skipped` when another worker took it first,
 * and `failed` when it was given up instead (workers kept dying during it: a poison job).
 */
export const claimDue = async (a: AttemptContext, doc: StoredDocument): Promise<Claimed | 'skipped' | 'failed'> => {
  const job = withoutVersion<DeliveryJob>(doc);
  const now = a.deps.clock.now();
  if (isAbandoned(job)) {
    const reason = `given up: ${MAX_ABANDONED_CLAIMS} workers stopped during this delivery without recording an outcome`;
    if (!(await a.deps.store.replace(C.webhookDeliveries, closeJob(job, 'failed', now, reason), doc.version))) return 'skipped';
    await countFailed(a.deps);
    return 'failed';
  }
  const claimed = claimJob(job, a.owner, now, a.leaseMs);
  return (await a.deps.store.replace(C.webhookDeliveries, claimed, doc.version)) ? { job: claimed, version: doc.version + 1 } : 'skipped';
};

/** Sends the claimed job once and answers the job as it stands after the attempt. */
const send = async (a: AttemptContext, claimed: DeliveryJob, endpoint: WebhookRecord | undefined): Promise<DeliveryJob> => {
  const { clock, meter } = a.deps;
  if (endpoint === undefined) {
    meter.count('ephemail_webhook_attempts_total', 'endpoint_deleted');
    return closeJob(claimed, 'failed', clock.now(), 'the webhook endpoint was deleted');
  }
  const body = JSON.stringify(claimed.payload);
  const startedAt = clock.now();
  const signed = signedHeaders(a.deps.webhooks.secrets, endpoint, body, startedAt);
  const outcome = signed.ok ? await a.transport.post(endpoint.url, signed.headers, body, { timeoutMs: a.timeoutMs }) : { error: signed.error };
  const now = clock.now();
  const timing = { startedAt, now, durationMs: Math.max(0, now.getTime() - startedAt.getTime()) };
  const series = webhookAttemptSeries(outcome);
  meter.count('ephemail_webhook_attempts_total', series);
  // A replay's event may be days old: its latency would say nothing about the pipeline.
  if (series === 'success' && !claimed.replay) {
    meter.observe('ephemail_webhook_delivery_latency_seconds', Math.max(0, now.getTime() - Date.parse(claimed.payload.timestamp)) / 1000);
  }
  return afterAttempt(claimed, outcome, timing, a.deps.config.webhookRetry, a.deps.webhooks.random);
};

/**
 * Writes the job after an attempt by compare-and-set on the version claimed, then the attempt's
 * record of the delivery log (insert-if-absent under an id derived from the delivery and
 * attempt). Answers whether the outcome was recorded.
 */
const recordOutcome = async (deps: WebhookDeps, next: DeliveryJob, version: number, logged: AttemptRecord | undefined): Promise<boolean> => {
  if (!(await deps.store.replace(C.webhookDeliveries, next, version))) return false;
  if (logged !== undefined) await deps.store.insert(C.webhookAttempts, logged);
  return true;
};

/**
 * Delivers a job this worker holds and records the outcome (with the attempt's row of the
 * delivery log) by compare-and-set on the version it claimed: if the lease passed to another
 * worker meanwhile, that worker's record wins and this outcome is dropped (`lost`).
 */
export const deliverClaimed = async (a: AttemptContext, held: Claimed, endpoint: WebhookRecord | undefined): Promise<JobOutcome> => {
  const next = await send(a, held.job, endpoint);
  // Only an attempt that was made is logged (not an endpoint deleted meanwhile).
  const logged = next.attempt > held.job.attempt ? attemptRecordOf(next) : undefined;
  if (!(await recordOutcome(a.deps, next, held.version, logged))) return 'lost';
  if (next.status === 'failed') await countFailed(a.deps);
  return next.status;
};
