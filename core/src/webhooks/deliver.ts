import { iso } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { withoutVersion } from '../store/compare-and-set.js';
import { afterAttempt, isAbandoned, MAX_ABANDONED_CLAIMS } from './attempt-outcome.js';
import type { DeliveryJob } from './delivery-job.js';
import { claimJob, closeJob } from './delivery-job.js';
import type { WebhookRecord } from './endpoint.js';
import type { WebhookTransport } from './ports.js';
import { signedHeaders } from './signed-headers.js';
import type { WebhookDeps } from './webhook-deps.js';

export interface DeliverOptions {
  /** Attempts in flight at once in this tick. Default 8. */
  readonly concurrency?: number;
  /** Due jobs read per query. Default 100. */
  readonly batch?: number;
  /** Jobs this tick takes on at most, so a backlog cannot hold one tick forever. Default 1000. */
  readonly maxJobs?: number;
  /** The receiver's time to answer, DNS to status. Default 10 s (the specification's). */
  readonly timeoutMs?: number;
  /** How long a claim holds a job before another worker may take it over. Default timeout + 20 s. */
  readonly leaseMs?: number;
}

export interface DeliverReport {
  readonly claimed: number;
  readonly delivered: number;
  /** Failed attempts with a retry scheduled. */
  readonly retrying: number;
  /** Jobs that ended `failed` in this tick. */
  readonly failed: number;
  /** Outcomes not recorded because the lease had passed to another worker meanwhile. */
  readonly lost: number;
}

type JobOutcome = 'skipped' | 'lost' | DeliveryJob['status'];

const shuffle = <T>(items: T[], random: () => number): T[] => {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
};

const eachLimited = async <T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
};

/**
 * Jobs due now, and jobs whose worker's lease ran out (their `next_attempt_at` is the lease end).
 * Both bounds are strings so a store that orders values of different types (SQLite) can keep the
 * scan inside the index range instead of walking every open job not yet due.
 */
const findDue = (deps: WebhookDeps, limit: number) =>
  deps.store.find(C.webhookDeliveries, {
    where: { open: true },
    range: { field: 'next_attempt_at', gte: '', lte: iso(deps.clock.now()) },
    sort: { field: 'next_attempt_at', direction: 'asc' },
    limit,
  });

interface Attempt {
  readonly deps: WebhookDeps;
  readonly owner: string;
  readonly transport: WebhookTransport;
  readonly timeoutMs: number;
  readonly leaseMs: number;
  readonly endpoint: (id: string) => Promise<WebhookRecord | undefined>;
}

/** Sends the claimed job once and answers the job as it stands after the attempt. */
const send = async (a: Attempt, claimed: DeliveryJob): Promise<DeliveryJob> => {
  const { clock } = a.deps;
  const endpoint = await a.endpoint(claimed.webhook_id);
  if (endpoint === undefined) return closeJob(claimed, 'failed', clock.now(), 'the webhook endpoint was deleted');
  const body = JSON.stringify(claimed.payload);
  const startedAt = clock.now();
  const signed = signedHeaders(a.deps.webhooks.secretsKey, endpoint, body, startedAt);
  const outcome = signed.ok ? await a.transport.post(endpoint.url, signed.headers, body, { timeoutMs: a.timeoutMs }) : { error: signed.error };
  const now = clock.now();
  const timing = { startedAt, now, durationMs: Math.max(0, now.getTime() - startedAt.getTime()) };
  return afterAttempt(claimed, outcome, timing, a.deps.config.webhookRetry, a.deps.webhooks.random);
};

/**
 * Claims one due job by compare-and-set (another worker may have taken it: skipped), delivers it
 * and records the outcome by compare-and-set on the claimed version: if the lease passed to
 * another worker meanwhile, that worker's record wins and this outcome is dropped (`lost`).
 */
const deliverOne = async (a: Attempt, doc: StoredDocument): Promise<JobOutcome> => {
  const job = withoutVersion<DeliveryJob>(doc);
  const now = a.deps.clock.now();
  if (isAbandoned(job)) {
    const reason = `given up: ${MAX_ABANDONED_CLAIMS} workers stopped during this delivery without recording an outcome`;
    return (await a.deps.store.replace(C.webhookDeliveries, closeJob(job, 'failed', now, reason), doc.version)) ? 'failed' : 'skipped';
  }
  const claimed = claimJob(job, a.owner, now, a.leaseMs);
  if (!(await a.deps.store.replace(C.webhookDeliveries, claimed, doc.version))) return 'skipped';
  const next = await send(a, claimed);
  return (await a.deps.store.replace(C.webhookDeliveries, next, doc.version + 1)) ? next.status : 'lost';
};

/**
 * One tick of a delivery worker: delivers due jobs, `concurrency` at a time, until none is due
 * or `maxJobs` were taken on. Any number of workers in any number of processes may tick at
 * once, overlapping ticks of one process included: each job is claimed by exactly one.
 */
export const deliverTick = async (
  deps: WebhookDeps,
  owner: string,
  transport: WebhookTransport,
  options: DeliverOptions = {},
): Promise<DeliverReport> => {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const batch = options.batch ?? 100;
  const counts = { claimed: 0, delivered: 0, retrying: 0, failed: 0, lost: 0 };
  const endpoints = new Map<string, Promise<WebhookRecord | undefined>>();
  const endpoint = (id: string) => {
    if (!endpoints.has(id)) endpoints.set(id, deps.store.get(C.webhooks, id) as Promise<WebhookRecord | undefined>);
    return endpoints.get(id)!;
  };
  const attempt: Attempt = { deps, owner, transport, timeoutMs, leaseMs: options.leaseMs ?? timeoutMs + 20_000, endpoint };
  let budget = options.maxJobs ?? 1000;
  while (budget > 0) {
    const due = await findDue(deps, Math.min(batch, budget));
    budget -= due.length;
    // Workers reading the same due list start at different places, so they rarely collide.
    await eachLimited(shuffle(due, deps.webhooks.random), options.concurrency ?? 8, async (doc) => {
      const outcome = await deliverOne(attempt, doc);
      if (outcome === 'skipped') return;
      counts.claimed += 1;
      if (outcome === 'delivered') counts.delivered += 1;
      else if (outcome === 'pending') counts.retrying += 1;
      else if (outcome === 'failed') counts.failed += 1;
      else if (outcome === 'lost') counts.lost += 1;
    });
    if (due.length < batch) break;
  }
  return counts;
};
