import './tripwire.js';
import { createHash } from 'node:crypto';
import test from 'ava';
import type { DeliveryHandoff, DocumentStore, Ephemail, FakeClock, WebhookTransport } from '../../src/index.js';
import { createEphemail, verifyWebhook } from '../../src/index.js';
import { right } from '../support.js';
import { Chaos, chaosStore, Incarnation, KILLED } from './chaos.js';
import { DATA_KEY, seeded, setupWebhooks } from './support.js';

/** Errors a dying or paused worker may surface; anything else is a bug and fails the test. */
const EXPECTED = [KILLED, 'cursor moved by another process'];

const ALL = 'https://all.example.com/h';
const SQUASHES = 'https://squash.example.com/h';

/**
 * The receivers of both endpoints: verify every signature, remember every (endpoint, event id),
 * and refuse every seventh pair once with a 503, so retries run under chaos too.
 */
const receivers = (secrets: ReadonlyMap<string, string>, clock: FakeClock) => {
  const received = new Map<string, number>();
  const refusedOnce = new Set<string>();
  const receive = (url: string, headers: Readonly<Record<string, string>>, body: string) => {
    if (!verifyWebhook(secrets.get(url)!, headers, body, clock.now()).valid) throw new Error(`bad signature to ${url}`);
    const key = `${url} ${JSON.parse(body).id}`;
    if (createHash('sha256').update(key).digest()[0]! % 7 === 0 && !refusedOnce.has(key)) {
      refusedOnce.add(key);
      return { status: 503 };
    }
    received.set(key, (received.get(key) ?? 0) + 1);
    return { status: 200 };
  };
  return { received, receive };
};

interface World {
  readonly store: DocumentStore;
  readonly clock: FakeClock;
  readonly chaos: Chaos;
  readonly seed: number;
  readonly receive: (url: string, headers: Readonly<Record<string, string>>, body: string) => { status: number };
  readonly unexpected: string[];
  starts: number;
  /** Jobs the dispatcher inserted claimed and handed straight to a pool. */
  handedOff: number;
}

/**
 * How a simulated process delivers: `ticks` runs a dispatch tick, then a delivery tick; `pool`
 * keeps a delivery pool that the dispatcher hands fresh jobs to (inserted already claimed).
 */
type Mode = 'ticks' | 'pool';

const deliverOnce = async (service: Ephemail, owner: string, transport: WebhookTransport, mode: Mode, world: World) => {
  if (mode === 'ticks') {
    await service.webhooks.dispatchTick(owner, { batch: 10 });
    await service.webhooks.deliverTick(owner, transport, { concurrency: 4, batch: 25, maxJobs: 100 });
    return;
  }
  const pool = service.webhooks.deliveryPool(owner, transport, { concurrency: 4, perEndpoint: 2, batch: 25, maxJobs: 100 });
  const handoff: DeliveryHandoff = {
    owner: pool.owner,
    leaseMs: pool.leaseMs,
    reserve: (id) => pool.reserve(id),
    release: (id) => pool.release(id),
    start: (job, endpoint) => {
      world.handedOff += 1;
      pool.start(job, endpoint);
    },
  };
  await service.webhooks.dispatchTick(owner, { batch: 10, handoff });
  await pool.fill();
  await pool.settled();
};

/** A simulated worker process: one service instance over the shared store, seen through chaos. */
class Worker {
  private incarnation?: Incarnation;
  private service?: Ephemail;
  private running?: Promise<void>;

  constructor(
    private readonly name: string,
    private readonly mode: Mode,
  ) {}

  get idle(): boolean {
    return this.running === undefined || this.incarnation?.dead === true;
  }

  /** Runs one dispatch and one delivery tick; resolves when they end, or when the process dies or pauses. */
  tick(world: World): Promise<unknown> {
    if (this.incarnation === undefined || this.incarnation.dead) {
      this.incarnation = new Incarnation(world.chaos);
      this.service = createEphemail({ store: chaosStore(world.store, this.incarnation), inboxDomain: 'inbox.test', clock: world.clock, dataKey: DATA_KEY, random: seeded(world.seed + world.starts) });
      world.starts += 1;
    }
    const incarnation = this.incarnation;
    const service = this.service!;
    const transport: WebhookTransport = { post: (url, headers, body) => incarnation.run(async () => world.receive(url, headers, body)) };
    const owner = `${this.name}#${world.starts}`;
    this.running = deliverOnce(service, owner, transport, this.mode, world)
      .catch((error: Error) => {
        if (!EXPECTED.some((text) => error.message.includes(text))) world.unexpected.push(error.stack ?? error.message);
        incarnation.kill();
      })
      .finally(() => {
        incarnation.paused = false;
        this.running = undefined;
      });
    return Promise.race([this.running, incarnation.halted]);
  }
}

const jobStates = async (store: DocumentStore) => {
  const states: Record<string, number> = {};
  for (const job of await store.find('webhook_deliveries', {})) {
    const key = `${job.status} after ${job.attempt} attempts`;
    states[key] = (states[key] ?? 0) + 1;
  }
  return states;
};

/**
 * 1,000 events (500 identities provisioned, then squashed) to two endpoints, while four
 * simulated worker processes dispatch and deliver under chaos: store operations and posts
 * crash before or after taking effect, hang forever, or stall until after leases ran out.
 * Crashed workers come back as new processes. Every event must reach every subscribed
 * endpoint at least once, with its original id and a valid signature.
 */
const runChaos = async (seed: number, mode: Mode) => {
  const { app, clock, store, principal } = await setupWebhooks({ plan: 'enterprise', random: seeded(seed) });
  const all = right(await app.webhooks.create(principal, { url: ALL, events: ['identity.provisioned', 'identity.squashed'] }));
  const squashes = right(await app.webhooks.create(principal, { url: SQUASHES, events: ['identity.squashed'] }));
  const { received, receive } = receivers(new Map([[ALL, all.secret], [SQUASHES, squashes.secret]]), clock);
  const chaos = new Chaos(seeded(seed * 31 + 7), { killBefore: 0.01, killAfter: 0.01, hang: 0.004, stall: 0.006 });
  const world: World = { store, clock, chaos, seed, receive, unexpected: [], starts: 0, handedOff: 0 };
  const workers = Array.from({ length: 4 }, (_, i) => new Worker(`worker-${i}`, mode));
  const expected = new Set<string>();
  let produced = 0;
  let rounds = 0;
  while ((produced < 500 || ![...expected].every((key) => received.has(key))) && rounds < 800) {
    rounds += 1;
    for (let i = 0; i < 25 && produced < 500; i += 1, produced += 1) {
      const identity = right(await app.identities.create(principal, { label: `c${produced}` }));
      right(await app.identities.squash(principal, identity.id));
    }
    chaos.releaseStalled();
    await Promise.all(workers.filter((worker) => worker.idle).map((worker) => worker.tick(world)));
    clock.advance(31_000);
    for (const event of await store.find('events', { where: { type: { in: ['identity.provisioned', 'identity.squashed'] } } })) {
      expected.add(`${ALL} ${event.id}`);
      if (event.type === 'identity.squashed') expected.add(`${SQUASHES} ${event.id}`);
    }
  }
  chaos.releaseStalled();
  return { expected, received, rounds, starts: world.starts, handedOff: world.handedOff, chaos, unexpected: world.unexpected, states: await jobStates(store) };
};

for (const [seed, mode] of [[1, 'ticks'], [2, 'ticks'], [3, 'ticks'], [4, 'pool'], [5, 'pool'], [6, 'pool']] as const) {
  test(`crash safety: no event is lost when workers crash at random points (${mode}, seed ${seed})`, async (t) => {
    const { expected, received, rounds, starts, handedOff, chaos, unexpected, states } = await runChaos(seed, mode);
    t.deepEqual(unexpected, [], 'only simulated crashes surfaced');
    t.is(expected.size, 1500, '1,000 events: 1,000 to one endpoint, the 500 squashes to the other');
    const missing = [...expected].filter((key) => !received.has(key));
    t.deepEqual(missing, [], `every event reached every subscribed endpoint, with its original id; jobs: ${JSON.stringify(states)}`);
    const duplicates = [...received.values()].filter((n) => n > 1).length;
    if (mode === 'pool') t.true(handedOff > 100, `the dispatcher handed jobs straight to pools (${handedOff})`);
    t.log(`seed ${seed}: ${rounds} rounds, ${starts} process starts, ${handedOff} handed off, fates ${JSON.stringify(chaos.counts)}, ${duplicates} deliveries seen more than once, jobs ${JSON.stringify(states)}`);
    t.true(chaos.counts['kill-before'] + chaos.counts['kill-after'] + chaos.counts.hang > 50, 'the run did crash workers, many times');
  });
}
