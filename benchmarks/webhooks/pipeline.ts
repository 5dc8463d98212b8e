import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore, Ephemail, Principal } from '@ephemail/core';
import { createEphemail } from '@ephemail/core';
import { createGuardedClient, createUrlGuard } from '@ephemail/http-outbound';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';
import type { Receiver } from './receiver-process.js';
import { offer, sleep, summarize } from './stats.js';

export interface PipelineOptions {
  readonly rate: number;
  readonly endpoints: number;
  /**
   * `fanout`: every endpoint subscribed to every event (one project, N endpoints: N deliveries
   * per event). `shared`: N projects with one endpoint each, events spread over them in turn
   * (one delivery per event).
   */
  readonly spread: 'fanout' | 'shared';
  readonly durationMs: number;
  /** Attempts the delivery pool keeps in flight, in all and per endpoint. */
  readonly concurrency: number;
  readonly perEndpoint: number;
  /** How long an idle loop waits before ticking again (the host's timer period), unless woken. */
  readonly pollMs: number;
  /** Least time between two dispatch ticks. */
  readonly dispatchSpacingMs: number;
  readonly maxSockets: number;
  readonly drainTimeoutMs: number;
}

const unwrap = <A>(either: { _tag: 'Left'; left: { _tag: string } } | { _tag: 'Right'; right: A }): A => {
  if (either._tag === 'Left') throw new Error(either.left._tag);
  return either.right;
};

/** One principal per project of the benchmark's organization. */
const tenants = async (service: Ephemail, projects: number): Promise<Principal[]> => {
  const projectIds = Array.from({ length: projects }, (_, i) => `proj_bench_${i}`);
  const key = unwrap(await service.auth.createApiKey({ orgId: 'org_bench', projectIds, scopes: ['identities:write', 'webhooks:write'], plan: 'enterprise' }));
  const principals: Principal[] = [];
  for (const projectId of projectIds) principals.push(unwrap(await service.auth.authenticate({ authorization: `Bearer ${key.key}`, orgId: 'org_bench', projectId })));
  return principals;
};

/** The endpoints (all in one project for `fanout`, one per project for `shared`) and their secrets. */
const endpoints = async (service: Ephemail, receiver: Receiver, options: PipelineOptions): Promise<Principal[]> => {
  const principals = await tenants(service, options.spread === 'shared' ? options.endpoints : 1);
  const secrets: string[] = [];
  for (let i = 0; i < options.endpoints; i += 1) {
    const owner = principals[i % principals.length]!;
    secrets.push(unwrap(await service.webhooks.create(owner, { url: `http://127.0.0.1:${receiver.port}/hook/${i}`, events: ['identity.provisioned'] })).secret);
  }
  await receiver.setSecrets(secrets);
  return principals;
};

/**
 * Where the time goes, from the stored records (ms, store clock): the event recorded to its job
 * enqueued, enqueued to the (last) attempt starting, and the attempt to its outcome recorded.
 */
const stageLatencies = async (store: DocumentStore) => {
  const jobs = await store.find('webhook_deliveries', {});
  const occurred = new Map((await store.find('events', {})).map((event) => [event.id, Date.parse(String(event.occurred_at))]));
  const at = (value: unknown) => Date.parse(String(value));
  // Jobs never attempted (a backlog left when the drain timed out) have no attempt times yet.
  const summarizeKnown = (values: number[]) => summarize(values.filter(Number.isFinite));
  return {
    recordedToEnqueued: summarizeKnown(jobs.map((job) => at(job.created_at) - (occurred.get(String(job.event_id)) ?? 0))),
    enqueuedToAttempt: summarizeKnown(jobs.map((job) => at(job.last_attempt_at) - at(job.created_at))),
    attemptToRecorded: summarizeKnown(jobs.map((job) => at(job.updated_at) - at(job.last_attempt_at))),
  };
};

/**
 * A timer that can be cut short: idle loops wait on it, and in-process news (an event logged, a
 * job enqueued) wakes them at once. The timer alone keeps things correct (events and retries
 * from other processes are found on the next period); the wake-up only saves the wait.
 */
class Wake {
  private wakeUp: (() => void) | undefined;
  private pending = false;

  wake(): void {
    this.pending = true;
    this.wakeUp?.();
  }

  async wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wakeUp = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    this.wakeUp = undefined;
    this.pending = false;
  }
}

/**
 * Runs `tick` until stopped; when a tick found nothing to do, waits for a wake-up or the period.
 * Ticks start at least `spacingMs` apart, so a burst of wake-ups (one per event) is handled in a
 * few batched ticks rather than one tick per event, each with its own lease and cursor writes.
 */
const loop = async (running: () => boolean, tick: () => Promise<number>, wake: Wake, pollMs: number, spacingMs = 0) => {
  let last = 0;
  while (running()) {
    const gap = last + spacingMs - performance.now();
    if (gap > 0) await sleep(gap);
    last = performance.now();
    if ((await tick()) === 0) await wake.wait(pollMs);
  }
};

/**
 * The real path on the host's default store (SQLite, a fresh file): identities created at the
 * offered rate record `identity.provisioned`; the webhook relay enqueues a job per endpoint and
 * hands those it has room for straight to the delivery pool (as the host's worker does); the
 * pool posts through the guarded client to the receiver process and refills freed slots from
 * the jobs left pending.
 */
export const runWebhooks = async (receiver: Receiver, options: PipelineOptions) => {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-bench-'));
  const service = createEphemail({
    store: createSqliteDocumentStore(openSqliteDatabase(join(dir, 'bench.db'))),
    inboxDomain: 'bench.test',
    dataKey: randomBytes(32),
    urlGuard: createUrlGuard(),
    config: { allowHttpLoopback: true },
  });
  await service.init();
  const client = createGuardedClient({ allowHttpLoopback: true, maxSocketsPerPool: options.maxSockets });
  const errors: string[] = [];
  try {
    const principals = await endpoints(service, receiver, options);
    const pool = service.webhooks.deliveryPool('bench', client, {
      concurrency: options.concurrency,
      perEndpoint: options.perEndpoint,
      onError: (error) => errors.push(String(error)),
    });
    let running = true;
    const dispatchWake = new Wake();
    const fillWake = new Wake();
    const unsubscribe = service.events.subscribe(() => dispatchWake.wake());
    const dispatch = async () => {
      const report = await service.webhooks.dispatchTick('bench', { batch: 500, handoff: pool });
      // Jobs the pool had no room for wait as pending: the pool refills from them.
      if (report.enqueued > report.handedOff) fillWake.wake();
      return report.handled;
    };
    const fill = async () => {
      await pool.fill();
      return 0;
    };
    const loops = [
      loop(() => running, dispatch, dispatchWake, options.pollMs, options.dispatchSpacingMs),
      loop(() => running, fill, fillWake, options.pollMs),
    ];
    // Events are recorded one after another, as they fall due: concurrent creations of one
    // organization would contend on its quota counter, which is not what is measured here. If
    // recording falls behind, events are recorded late (and measured from when they were).
    let recording: Promise<unknown> = Promise.resolve();
    const startedAt = Date.now();
    const events = await offer(options.rate, options.durationMs, (i) => {
      recording = recording.then(() => service.identities.create(principals[i % principals.length]!, { label: `bench ${i}` }));
    });
    await recording;
    const recordedMs = Date.now() - startedAt;
    const expected = events * (options.spread === 'shared' ? 1 : options.endpoints);
    const drainDeadline = Date.now() + options.drainTimeoutMs;
    while ((await receiver.count()) < expected && Date.now() < drainDeadline) await sleep(50);
    running = false;
    unsubscribe();
    dispatchWake.wake();
    fillWake.wake();
    await Promise.all(loops);
    await pool.close();
    const taken = await receiver.take();
    const stages = await stageLatencies(service.deps.store);
    const store = service.deps.store;
    const states = Object.fromEntries(
      await Promise.all(['pending', 'delivering', 'delivered', 'failed'].map(async (status) => [status, await store.count('webhook_deliveries', { where: { status } })])),
    );
    if (errors.length > 0) throw new Error(`the delivery pool reported ${errors.length} store errors, first: ${errors[0]}`);
    return { events, expected, startedAt, taken, states, stages, pool: pool.report(), recordedEventsPerSec: Number((events / (recordedMs / 1000)).toFixed(1)) };
  } finally {
    client.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
