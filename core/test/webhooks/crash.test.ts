import './tripwire.js';
import { createHash } from 'node:crypto';
import test from 'ava';
import type { Ephemail, WebhookTransport } from '../../src/index.js';
import { createEphemail, verifyWebhook } from '../../src/index.js';
import { right } from '../support.js';
import { Chaos, chaosStore, Incarnation, KILLED } from './chaos.js';
import { DATA_KEY, seeded, setupWebhooks } from './support.js';

/** Errors a dying or paused worker may surface; anything else is a bug and fails the test. */
const EXPECTED = [KILLED, 'cursor moved by another process'];

interface Worker {
  readonly name: string;
  incarnation?: Incarnation;
  service?: Ephemail;
  running?: Promise<void>;
}

/**
 * 1,000 events (500 identities provisioned, then squashed) to two endpoints, while four
 * simulated worker processes dispatch and deliver under chaos: store operations and posts
 * crash before or after taking effect, hang forever, or stall until after leases ran out.
 * Crashed workers come back as new processes. Every event must reach every subscribed
 * endpoint at least once, with its original id and a valid signature.
 */
const runChaos = async (seed: number) => {
  const { app, clock, store, principal } = await setupWebhooks({ plan: 'enterprise', random: seeded(seed) });
  const all = right(await app.webhooks.create(principal, { url: 'https://all.example.com/h', events: ['identity.provisioned', 'identity.squashed'] }));
  const squashes = right(await app.webhooks.create(principal, { url: 'https://squash.example.com/h', events: ['identity.squashed'] }));
  const secrets = new Map([[all.id, all.secret], [squashes.id, squashes.secret]].map(([id, secret]) => [id === all.id ? 'https://all.example.com/h' : 'https://squash.example.com/h', secret!]));
  const received = new Map<string, number>();
  const refusedOnce = new Set<string>();
  const receive = (url: string, headers: Readonly<Record<string, string>>, body: string) => {
    if (!verifyWebhook(secrets.get(url)!, headers, body, clock.now()).valid) throw new Error(`bad signature to ${url}`);
    const key = `${url} ${JSON.parse(body).id}`;
    // Every seventh (event, endpoint) is refused once with a 503, so retries run under chaos too.
    if (createHash('sha256').update(key).digest()[0]! % 7 === 0 && !refusedOnce.has(key)) {
      refusedOnce.add(key);
      return { status: 503 };
    }
    received.set(key, (received.get(key) ?? 0) + 1);
    return { status: 200 };
  };
  const chaos = new Chaos(seeded(seed * 31 + 7), { killBefore: 0.01, killAfter: 0.01, hang: 0.004, stall: 0.006 });
  const workers: Worker[] = Array.from({ length: 4 }, (_, i) => ({ name: `worker-${i}` }));
  const unexpected: string[] = [];
  let restarts = 0;
  const start = (worker: Worker) => {
    if (worker.incarnation === undefined || worker.incarnation.dead) {
      worker.incarnation = new Incarnation(chaos);
      worker.service = createEphemail({ store: chaosStore(store, worker.incarnation), inboxDomain: 'inbox.test', clock, dataKey: DATA_KEY, random: seeded(seed + restarts) });
      restarts += 1;
    }
    const incarnation = worker.incarnation;
    const transport: WebhookTransport = { post: (url, headers, body) => incarnation.run(async () => receive(url, headers, body)) };
    const owner = `${worker.name}#${restarts}`;
    worker.running = (async () => {
      await worker.service!.webhooks.dispatchTick(owner, { batch: 10 });
      await worker.service!.webhooks.deliverTick(owner, transport, { concurrency: 4, batch: 25, maxJobs: 100 });
    })()
      .catch((error: Error) => {
        if (!EXPECTED.some((text) => error.message.includes(text))) unexpected.push(error.stack ?? error.message);
        incarnation.kill();
      })
      .finally(() => {
        incarnation.paused = false;
        worker.running = undefined;
      });
    return Promise.race([worker.running, incarnation.halted]);
  };
  const expected = new Set<string>();
  let produced = 0;
  let rounds = 0;
  const complete = () => produced === 500 && [...expected].every((key) => received.has(key));
  while (!complete() && rounds < 3000) {
    rounds += 1;
    for (let i = 0; i < 25 && produced < 500; i += 1, produced += 1) {
      const identity = right(await app.identities.create(principal, { label: `c${produced}` }));
      right(await app.identities.squash(principal, identity.id));
    }
    chaos.releaseStalled();
    await Promise.all(workers.filter((worker) => worker.running === undefined || worker.incarnation?.dead).map(start));
    clock.advance(31_000);
    const events = await store.find('events', { where: { type: { in: ['identity.provisioned', 'identity.squashed'] } } });
    for (const event of events) {
      expected.add(`https://all.example.com/h ${event.id}`);
      if (event.type === 'identity.squashed') expected.add(`https://squash.example.com/h ${event.id}`);
    }
  }
  chaos.releaseStalled();
  const states: Record<string, number> = {};
  for (const job of await store.find('webhook_deliveries', {})) states[`${job.status} after ${job.attempt} attempts`] = (states[`${job.status} after ${job.attempt} attempts`] ?? 0) + 1;
  return { expected, received, rounds, restarts, chaos, unexpected, states };
};

for (const seed of [1, 2, 3]) {
  test(`crash safety: no event is lost when workers crash at random points (seed ${seed})`, async (t) => {
    const { expected, received, rounds, restarts, chaos, unexpected, states } = await runChaos(seed);
    t.deepEqual(unexpected, [], 'only simulated crashes surfaced');
    t.is(expected.size, 1500, '1,000 events: 1,000 to one endpoint, the 500 squashes to the other');
    const missing = [...expected].filter((key) => !received.has(key));
    t.deepEqual(missing, [], `every event reached every subscribed endpoint, with its original id; jobs: ${JSON.stringify(states)}`);
    const duplicates = [...received.values()].filter((n) => n > 1).length;
    t.log(`seed ${seed}: ${rounds} rounds, ${restarts} process starts, fates ${JSON.stringify(chaos.counts)}, ${duplicates} deliveries seen more than once, jobs ${JSON.stringify(states)}`);
    t.true(chaos.counts['kill-before'] + chaos.counts['kill-after'] + chaos.counts.hang > 50, 'the run did crash workers, many times');
  });
}
