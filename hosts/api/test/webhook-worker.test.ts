import test from 'ava';
import type { TransportOutcome, WebhookTransport } from '@ephemail/core';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '@ephemail/core';
import { createLogger } from '../src/logger.js';
import { startWebhookWorker } from '../src/webhook-worker.js';

const SLOW = 'https://slow.example.com/hook';
const FAST = 'https://fast.example.com/hook';

const right = <A>(either: { _tag: 'Left'; left: { _tag: string } } | { _tag: 'Right'; right: A }): A => {
  if (either._tag === 'Left') throw new Error(`expected Right, got ${either.left._tag}`);
  return either.right;
};

/** A service on the memory store with a fake clock, a tenant allowed webhooks, and two endpoints. */
const setup = async () => {
  const store = createMemoryDocumentStore();
  const app = createEphemail({ store, inboxDomain: 'inbox.test', clock: new FakeClock('2026-03-01T12:00:00.000Z'), dataKey: Buffer.alloc(32, 5) });
  await app.init();
  const key = right(await app.auth.createApiKey({ orgId: 'org_w', projectIds: ['proj_w'], scopes: ['identities:write', 'webhooks:write'], plan: 'growth' }));
  const principal = right(await app.auth.authenticate({ authorization: `Bearer ${key.key}`, orgId: 'org_w', projectId: 'proj_w' }));
  for (const url of [SLOW, FAST]) right(await app.webhooks.create(principal, { url, events: ['identity.provisioned'] }));
  return { app, store, principal };
};

/** Posts to SLOW wait until released; posts to FAST answer at once and are counted. */
const receivers = () => {
  const held: (() => void)[] = [];
  const fast: string[] = [];
  const waiters: { readonly count: number; readonly resolve: () => void }[] = [];
  const transport: WebhookTransport = {
    post: async (url, _headers, body): Promise<TransportOutcome> => {
      if (url === SLOW) return new Promise((resolve) => held.push(() => resolve({ status: 200 })));
      fast.push(JSON.parse(body).id);
      for (const waiter of waiters.filter((w) => fast.length >= w.count)) waiter.resolve();
      return { status: 200 };
    },
  };
  const fastReached = (count: number) => new Promise<void>((resolve) => (fast.length >= count ? resolve() : waiters.push({ count, resolve })));
  return { transport, held, fast, fastReached, release: () => held.splice(0).forEach((go) => go()) };
};

const options = { owner: 'host-test', intervalMs: 20, concurrency: 8, timeoutMs: 10_000 };

test('webhook worker: a slow endpoint does not hold up deliveries of later events to another endpoint', async (t) => {
  const { app, principal } = await setup();
  const r = receivers();
  const stop = startWebhookWorker(app, r.transport, options, createLogger('silent'));
  right(await app.identities.create(principal, { label: 'first' }));
  await r.fastReached(1);
  right(await app.identities.create(principal, { label: 'second' }));
  right(await app.identities.create(principal, { label: 'third' }));
  await r.fastReached(3);
  t.is(r.fast.length, 3, 'the fast endpoint got every event');
  t.true(r.held.length >= 1, 'while the slow endpoint still holds its first delivery');
  let stopped = false;
  const stopping = stop().then(() => (stopped = true));
  await new Promise((resolve) => setImmediate(resolve));
  t.false(stopped, 'stop waits for the attempts in flight');
  while (!stopped) {
    r.release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await stopping;
});

test('webhook worker: fresh jobs go straight from the dispatcher to the pool (two writes per delivery)', async (t) => {
  const { app, principal, store } = await setup();
  const r = receivers();
  const stop = startWebhookWorker(app, r.transport, options, createLogger('silent'));
  right(await app.identities.create(principal, { label: 'one' }));
  await r.fastReached(1);
  r.release();
  const stopping = stop();
  while (r.held.length > 0 || (await store.count('webhook_deliveries', { where: { status: 'delivered' } })) < 2) {
    r.release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await stopping;
  const jobs = await store.find('webhook_deliveries', {});
  t.deepEqual(jobs.map((job) => [job.status, job.version, job.claims]), [['delivered', 2, 1], ['delivered', 2, 1]]);
});

test('webhook worker: events nobody subscribed to stop waking the dispatcher; the timer still serves an endpoint added later', async (t) => {
  const store = createMemoryDocumentStore();
  let cursorReads = 0;
  const counting = new Proxy(store, {
    get: (target, name, receiver) =>
      name === 'get'
        ? (collection: string, id: string) => {
            if (collection === 'relay_cursors') cursorReads += 1;
            return target.get(collection, id);
          }
        : typeof Reflect.get(target, name, receiver) === 'function'
          ? (Reflect.get(target, name, receiver) as (...args: unknown[]) => unknown).bind(target)
          : Reflect.get(target, name, receiver),
  });
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const app = createEphemail({ store: counting, inboxDomain: 'inbox.test', clock, dataKey: Buffer.alloc(32, 5) });
  await app.init();
  const key = right(await app.auth.createApiKey({ orgId: 'org_q', projectIds: ['proj_q'], scopes: ['identities:write', 'webhooks:write'], plan: 'growth' }));
  const principal = right(await app.auth.authenticate({ authorization: `Bearer ${key.key}`, orgId: 'org_q', projectId: 'proj_q' }));
  const r = receivers();
  const stop = startWebhookWorker(app, r.transport, { ...options, intervalMs: 200 }, createLogger('silent'));
  // The worker's timer is unref'd (a host's server keeps the process up); here, this does.
  const alive = setInterval(() => undefined, 1000);
  t.teardown(async () => {
    clearInterval(alive);
    await stop();
  });
  right(await app.identities.create(principal, { label: 'nobody listens' }));
  // The tick that reads this event finds no endpoint for it; wait until it has run.
  while (cursorReads < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  const settled = cursorReads;
  for (let i = 0; i < 20; i += 1) right(await app.identities.create(principal, { label: `quiet ${i}` }));
  await new Promise((resolve) => setImmediate(resolve));
  t.true(cursorReads - settled <= 1, `20 events woke the relay ${cursorReads - settled} times (at most the one tick in flight)`);
  // An endpoint gets the events that happen after it was made, not the quiet ones before.
  clock.advance(1000);
  right(await app.webhooks.create(principal, { url: FAST, events: ['identity.provisioned'] }));
  right(await app.identities.create(principal, { label: 'now someone listens' }));
  await r.fastReached(1);
  t.is(r.fast.length, 1, 'the timer delivered the first event for the new endpoint');
  right(await app.identities.create(principal, { label: 'next' }));
  await r.fastReached(2);
  t.is(r.fast.length, 2, 'and the next one too');
});
