import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { dueBy } from '../store/due-by.js';
import { withoutVersion } from '../store/compare-and-set.js';
import { afterAttempt, isAbandoned, MAX_ABANDONED_CLAIMS } from './attempt-outcome.js';
import type { DeliveryJob } from './delivery-job.js';
import { claimJob, closeJob } from './delivery-job.js';
import type { WebhookRecord } from './endpoint.js';
import type { WebhookTransport } from './ports.js';
import { signedHeaders } from './signed-headers.js';
import type { WebhookDeps } from './webhook-deps.js';

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
    return (await a.deps.store.replace(C.webhookDeliveries, closeJob(job, 'failed', now, reason), doc.version)) ? 'failed' : 'skipped';
  }
  const claimed = claimJob(job, a.owner, now, a.leaseMs);
  return (await a.deps.store.replace(C.webhookDeliveries, claimed, doc.version)) ? { job: claimed, version: doc.version + 1 } : 'skipped';
};

/** Sends the claimed job once and answers the job as it stands after the attempt. */
const send = async (a: AttemptContext, claimed: DeliveryJob, endpoint: WebhookRecord | undefined): Promise<DeliveryJob> => {
  const { clock } = a.deps;
  if (endpoint === undefined) return closeJob(claimed, 'failed', clock.now(), 'the webhook endpoint was deleted');
  const body = JSON.stringify(claimed.payload);
  const startedAt = clock.now();
  const signed = signedHeaders(a.deps.webhooks.secrets, endpoint, body, startedAt);
  const outcome = signed.ok ? await a.transport.post(endpoint.url, signed.headers, body, { timeoutMs: a.timeoutMs }) : { error: signed.error };
  const now = clock.now();
  const timing = { startedAt, now, durationMs: Math.max(0, now.getTime() - startedAt.getTime()) };
  return afterAttempt(claimed, outcome, timing, a.deps.config.webhookRetry, a.deps.webhooks.random);
};

/**
 * Delivers a job this worker holds and records the outcome by compare-and-set on the version it
 * claimed: if the lease passed to another worker meanwhile, that worker's record wins and this
 * outcome is dropped (`lost`).
 */
export const deliverClaimed = async (a: AttemptContext, held: Claimed, endpoint: WebhookRecord | undefined): Promise<JobOutcome> => {
  const next = await send(a, held.job, endpoint);
  return (await a.deps.store.replace(C.webhookDeliveries, next, held.version)) ? next.status : 'lost';
};
