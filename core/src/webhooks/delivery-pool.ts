import type { StoredDocument } from '../ports/document-store.js';
import type { AttemptContext, Claimed, JobOutcome } from './attempt.js';
import { claimDue, deliverClaimed, findDue } from './attempt.js';
import type { DeliveryJob } from './delivery-job.js';
import type { WebhookRecord } from './endpoint.js';
import type { EndpointCache } from './endpoint-cache.js';
import { createEndpointCache } from './endpoint-cache.js';
import type { WebhookTransport } from './ports.js';
import type { WebhookDeps } from './webhook-deps.js';

export interface DeliveryPoolOptions {
  /** Attempts in flight at once. Default 8. */
  readonly concurrency?: number;
  /**
   * Attempts in flight to one endpoint at once, so a slow endpoint holds at most this many slots
   * and the others keep going. Default a quarter of `concurrency` (at least 1).
   */
  readonly perEndpoint?: number;
  /** Due jobs read per query. Default 100. */
  readonly batch?: number;
  /** Jobs taken on in all (a tick's budget); unlimited by default. */
  readonly maxJobs?: number;
  /** The receiver's time to answer, DNS to status. Default 10 s (the specification's). */
  readonly timeoutMs?: number;
  /** How long a claim holds a job before another worker may take it over. Default timeout + 20 s. */
  readonly leaseMs?: number;
  /** How long an endpoint record read from the store is reused. Default 1000 ms. */
  readonly endpointTtlMs?: number;
  /**
   * Infrastructure errors (a store that failed). With it the pool reports and goes on; without
   * it the pool stops at the first error and `settled()` rejects with it.
   */
  readonly onError?: (error: unknown) => void;
}

export interface DeliverReport {
  readonly claimed: number;
  readonly delivered: number;
  /** Failed attempts with a retry scheduled. */
  readonly retrying: number;
  /** Jobs that ended `failed`. */
  readonly failed: number;
  /** Outcomes not recorded because the lease had passed to another worker meanwhile. */
  readonly lost: number;
}

/**
 * How the dispatcher hands fresh jobs straight to a pool: it reserves a slot, inserts the job
 * already claimed by the pool's owner (one write instead of an insert and a claim), and starts
 * the attempt. The job is in the store, leased, before anything is posted, so a crash of this
 * process loses nothing: the lease runs out and any worker takes the job over.
 */
export interface DeliveryHandoff {
  readonly owner: string;
  readonly leaseMs: number;
  /** Takes a slot for one attempt to this endpoint now; `false` when none is free. */
  reserve(webhookId: string): boolean;
  /** Starts the attempt of a job inserted claimed (version 1) on a slot reserved for it. */
  start(job: DeliveryJob, endpoint: WebhookRecord): void;
  /** Gives back a reserved slot that was not used (the job existed already). */
  release(webhookId: string): void;
}

/**
 * Keeps up to `concurrency` attempts in flight, each started as soon as it is claimed, instead of
 * claiming a batch and waiting for all of it: a slot freed by one attempt is refilled from the
 * due jobs while the others go on. Jobs are claimed by compare-and-set, so any number of pools in
 * any number of processes share the work, and fills of one pool may overlap.
 */
export interface DeliveryPool extends DeliveryHandoff {
  /** Reads due jobs and starts those it can; resolves when they are claimed, not delivered. Never rejects. */
  fill(): Promise<void>;
  /** Resolves once nothing is in flight and no fill runs; rejects with the first error when there is no `onError`. */
  settled(): Promise<void>;
  /** What the pool did so far. */
  report(): DeliverReport;
  /** Attempts in flight now. */
  readonly inFlight: number;
  /** Takes nothing more on and waits for the attempts in flight. */
  close(): Promise<void>;
}

const shuffle = <T>(items: T[], random: () => number): T[] => {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
};

/** Slots in use, in all and per endpoint, and the budget left. */
class Slots {
  active = 0;
  private readonly perEndpoint = new Map<string, number>();

  constructor(
    readonly capacity: number,
    private readonly endpointCap: number,
    public budget: number,
  ) {}

  get free(): number {
    return this.budget <= 0 ? 0 : Math.min(this.budget, this.capacity - this.active);
  }

  take(webhookId: string): boolean {
    const used = this.perEndpoint.get(webhookId) ?? 0;
    if (this.free <= 0 || used >= this.endpointCap) return false;
    this.active += 1;
    this.budget -= 1;
    this.perEndpoint.set(webhookId, used + 1);
    return true;
  }

  give(webhookId: string, refund: boolean): void {
    this.active -= 1;
    if (refund) this.budget += 1;
    const used = (this.perEndpoint.get(webhookId) ?? 1) - 1;
    if (used === 0) this.perEndpoint.delete(webhookId);
    else this.perEndpoint.set(webhookId, used);
  }
}

type Counts = { -readonly [K in keyof DeliverReport]: number };

class Pool implements DeliveryPool {
  private readonly slots: Slots;
  private readonly counts: Counts = { claimed: 0, delivered: 0, retrying: 0, failed: 0, lost: 0 };
  private readonly endpoints: EndpointCache;
  private filling: Promise<void> | undefined;
  private again = false;
  /** Whether the last fill left due jobs behind (a full page, or jobs passed over for their endpoint's share). */
  private moreDue = false;
  private closed = false;
  private failure: { readonly error: unknown } | undefined;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly a: AttemptContext,
    private readonly options: DeliveryPoolOptions,
  ) {
    const concurrency = Math.max(1, options.concurrency ?? 8);
    this.slots = new Slots(concurrency, Math.max(1, options.perEndpoint ?? Math.floor(concurrency / 4)), options.maxJobs ?? Infinity);
    this.endpoints = createEndpointCache(a.deps.store, a.deps.clock, options.endpointTtlMs ?? 1000);
  }

  get owner(): string {
    return this.a.owner;
  }

  get leaseMs(): number {
    return this.a.leaseMs;
  }

  get inFlight(): number {
    return this.slots.active;
  }

  reserve(webhookId: string): boolean {
    return !this.closed && this.slots.take(webhookId);
  }

  release(webhookId: string): void {
    this.slots.give(webhookId, true);
    this.wakeWaiters();
  }

  start(job: DeliveryJob, endpoint: WebhookRecord): void {
    this.endpoints.put(endpoint);
    this.counts.claimed += 1;
    this.run({ job, version: 1 }, Promise.resolve(endpoint));
  }

  fill(): Promise<void> {
    // Whoever asks has news (or a timer): jobs may be due until a read finds none left.
    this.moreDue = true;
    if (this.filling !== undefined) {
      this.again = true;
      return this.filling;
    }
    this.filling = this.fillWhileAsked().finally(() => {
      this.filling = undefined;
      this.wakeWaiters();
    });
    return this.filling;
  }

  settled(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.idle) resolve();
      else this.waiters.push(resolve);
    }).then(() => {
      if (this.failure !== undefined && this.options.onError === undefined) throw this.failure.error;
    });
  }

  report(): DeliverReport {
    return { ...this.counts };
  }

  async close(): Promise<void> {
    this.closed = true;
    await new Promise<void>((resolve) => (this.idle ? resolve() : this.waiters.push(resolve)));
  }

  private get idle(): boolean {
    return this.slots.active === 0 && this.filling === undefined;
  }

  private wakeWaiters(): void {
    if (!this.idle) return;
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }

  private fail(error: unknown): void {
    if (this.options.onError !== undefined) return this.options.onError(error);
    this.failure ??= { error };
    this.closed = true;
  }

  private async fillWhileAsked(): Promise<void> {
    do {
      this.again = false;
      await this.fillOnce().catch((error: unknown) => this.fail(error));
    } while (this.again && !this.closed && this.slots.free > 0);
  }

  /**
   * Reads due jobs page by page and claims those it has room for. A job whose endpoint already
   * has its share of slots is passed over and stays due, and the next page starts after it, so
   * a backlog of one slow endpoint at the head of the due order does not hide the other
   * endpoints' jobs behind it, up to six pages deep (see ADR 0009 for deeper backlogs).
   */
  private async fillOnce(): Promise<void> {
    const batch = Math.max(1, this.options.batch ?? 100);
    let offset = 0;
    for (let page = 0; page < 6 && !this.closed && this.slots.free > 0; page += 1) {
      // The first page is sized to the free slots; pages after jobs were passed over, to a batch.
      const limit = page === 0 ? Math.min(batch, this.slots.free * 2) : batch;
      const due = await findDue(this.a.deps, limit, offset);
      const passed = (await Promise.all(shuffle(due, this.a.deps.webhooks.random).map((doc) => this.claim(doc)))).filter(Boolean).length;
      offset += passed;
      this.moreDue = due.length === limit || offset > 0;
      if (due.length < limit) return;
    }
  }

  /** Claims one due job into a slot and starts it; answers whether it was passed over (still due). */
  private async claim(doc: StoredDocument): Promise<boolean> {
    const webhookId = String(doc.webhook_id);
    if (this.closed || !this.slots.take(webhookId)) return true;
    let claimed: Claimed | 'skipped' | 'failed';
    try {
      claimed = await claimDue(this.a, doc);
    } catch (error) {
      this.slots.give(webhookId, true);
      throw error;
    }
    if (claimed === 'skipped') {
      this.slots.give(webhookId, true);
      return false;
    }
    this.counts.claimed += 1;
    if (claimed === 'failed') {
      this.counts.failed += 1;
      this.slots.give(webhookId, false);
      return false;
    }
    this.run(claimed, this.endpoints.get(webhookId));
    return false;
  }

  /** The attempt of one held job, in the background; its slot is refilled when it ends. */
  private run(held: Claimed, endpoint: Promise<WebhookRecord | undefined>): void {
    void endpoint
      .then((record) => deliverClaimed(this.a, held, record))
      .then((outcome) => this.count(outcome), (error: unknown) => this.fail(error))
      .finally(() => {
        this.slots.give(held.job.webhook_id, false);
        // Refill once a quarter of the slots is free (one query serves several attempts), and
        // only when the last fill left jobs due: otherwise news and the caller's timer ask.
        if (this.moreDue && !this.closed && this.slots.free >= Math.max(1, Math.floor(this.slots.capacity / 4))) void this.fill();
        this.wakeWaiters();
      });
  }

  private count(outcome: JobOutcome): void {
    if (outcome === 'delivered') this.counts.delivered += 1;
    else if (outcome === 'pending') this.counts.retrying += 1;
    else if (outcome === 'failed') this.counts.failed += 1;
    else if (outcome === 'lost') this.counts.lost += 1;
  }
}

export const createDeliveryPool = (
  deps: WebhookDeps,
  owner: string,
  transport: WebhookTransport,
  options: DeliveryPoolOptions = {},
): DeliveryPool => {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Pool({ deps, owner, transport, timeoutMs, leaseMs: options.leaseMs ?? timeoutMs + 20_000 }, options);
};
