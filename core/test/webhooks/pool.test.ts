import './tripwire.js';
import test from 'ava';
import type { TransportOutcome } from '../../src/index.js';
import { verifyWebhook } from '../../src/index.js';
import { right } from '../support.js';
import { recordingTransport, setupWebhooks } from './support.js';

const SLOW = 'https://slow.example.com/h';
const FAST = 'https://fast.example.com/h';
const subscribe = (url: string) => ({ url, events: ['identity.provisioned' as const] });

/** Lets queued callbacks and store calls run, until `done` holds (no timers: progress, not time). */
const until = async (done: () => boolean, turns = 2000): Promise<void> => {
  for (let i = 0; i < turns && !done(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  if (!done()) throw new Error('no progress');
};

/** A transport whose posts to `SLOW` wait until released; every other post answers 200 at once. */
const slowAndFast = () => {
  const held: (() => void)[] = [];
  let slowInFlight = 0;
  let slowMostInFlight = 0;
  const recorder = recordingTransport((sent) => {
    if (sent.url !== SLOW) return { status: 200 };
    slowInFlight += 1;
    slowMostInFlight = Math.max(slowMostInFlight, slowInFlight);
    return new Promise<TransportOutcome>((resolve) => held.push(() => ((slowInFlight -= 1), resolve({ status: 200 }))));
  });
  const posted = (url: string) => recorder.sent.filter((s) => s.url === url).length;
  const releaseAll = () => held.splice(0).forEach((release) => release());
  return { ...recorder, posted, releaseAll, held, mostInFlight: () => slowMostInFlight };
};

test('pool: a slow endpoint does not delay deliveries to another endpoint, even behind its backlog', async (t) => {
  const { app, principal, clock, store } = await setupWebhooks({ plan: 'enterprise' });
  right(await app.webhooks.create(principal, subscribe(SLOW)));
  for (let i = 0; i < 12; i += 1) right(await app.identities.create(principal, { label: `backlog ${i}` }));
  await app.webhooks.dispatchTick('d');
  clock.advance(1);
  right(await app.webhooks.create(principal, subscribe(FAST)));
  for (let i = 0; i < 6; i += 1) right(await app.identities.create(principal, { label: `both ${i}` }));
  await app.webhooks.dispatchTick('d');
  const receiver = slowAndFast();
  const pool = app.webhooks.deliveryPool('w', receiver.transport, { concurrency: 4, perEndpoint: 2, batch: 4 });
  await pool.fill();
  // The 18 jobs of the slow endpoint come first in the due order; its attempts never answer.
  await until(() => receiver.posted(FAST) === 6 && pool.inFlight === 2);
  const delivered = await store.find('webhook_deliveries', { where: { status: 'delivered' } });
  t.is(delivered.length, 6, 'every delivery to the fast endpoint was made and recorded');
  t.is(receiver.posted(SLOW), 2);
  t.is(receiver.mostInFlight(), 2, 'the slow endpoint held at most its share of the slots');
  // Drain the backlog: release what is held, and once those attempts are recorded (their slots
  // free), fill, so the drain does not depend on how many store calls an attempt makes.
  while (pool.report().delivered < 24) {
    receiver.releaseAll();
    await until(() => receiver.held.length > 0 || pool.inFlight === 0);
    if (receiver.held.length === 0) await pool.fill();
    await until(() => receiver.held.length > 0 || pool.report().delivered === 24);
  }
  await pool.settled();
  t.like(pool.report(), { claimed: 24, delivered: 24, retrying: 0, failed: 0, lost: 0 });
  t.is(receiver.mostInFlight(), 2);
});

test('pool: a slot freed by one attempt is refilled while another attempt is still in flight', async (t) => {
  const { app, principal } = await setupWebhooks();
  right(await app.webhooks.create(principal, subscribe(SLOW)));
  right(await app.webhooks.create(principal, subscribe(FAST)));
  for (let i = 0; i < 5; i += 1) right(await app.identities.create(principal, { label: `r${i}` }));
  await app.webhooks.dispatchTick('d');
  const receiver = slowAndFast();
  const pool = app.webhooks.deliveryPool('w', receiver.transport, { concurrency: 2, perEndpoint: 1, batch: 10 });
  await pool.fill();
  await until(() => receiver.posted(FAST) === 5);
  t.is(receiver.posted(SLOW), 1, 'the first slow attempt is still waiting');
  t.like(pool.report(), { delivered: 5 }, 'the fast deliveries did not wait for it');
  receiver.releaseAll();
  await until(() => receiver.posted(SLOW) === 2);
  receiver.releaseAll();
  await until(() => receiver.posted(SLOW) === 5 || receiver.held.length > 0);
  while (receiver.held.length > 0 || pool.inFlight > 0) {
    receiver.releaseAll();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await pool.settled();
  t.like(pool.report(), { claimed: 10, delivered: 10 });
});

test('dispatch hand-off: fresh jobs are inserted claimed and posted without a fill; the rest wait as pending', async (t) => {
  const { app, principal, clock, store } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, subscribe(SLOW)));
  for (let i = 0; i < 5; i += 1) right(await app.identities.create(principal, { label: `h${i}` }));
  const receiver = slowAndFast();
  const pool = app.webhooks.deliveryPool('host-1', receiver.transport, { concurrency: 3, perEndpoint: 3 });
  t.like(await app.webhooks.dispatchTick('host-1', { handoff: pool }), { enqueued: 5, handedOff: 3 });
  await until(() => receiver.held.length === 3);
  const jobs = await store.find('webhook_deliveries', {});
  const handed = jobs.filter((job) => job.status === 'delivering');
  t.is(handed.length, 3, 'three slots: three jobs started straight from the dispatcher, no fill');
  t.true(handed.every((job) => job.version === 1 && job.claims === 1 && job.lease_owner === 'host-1'), 'inserted claimed: one write');
  t.is(jobs.filter((job) => job.status === 'pending').length, 2, 'the others were inserted pending, for any worker');
  // As a worker does when the dispatcher enqueued more than it handed off: the pool is full
  // now, so the freed slots are refilled from the pending jobs as the attempts end.
  await pool.fill();
  while (receiver.held.length > 0 || pool.inFlight > 0) {
    receiver.releaseAll();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await pool.settled();
  t.like(pool.report(), { claimed: 5, delivered: 5 }, 'the freed slots were refilled from the pending jobs');
  const versions = new Map((await store.find('webhook_deliveries', {})).map((job) => [job.id, job.version]));
  t.true(handed.every((job) => versions.get(job.id) === 2), 'a handed-off delivery took two writes: the claimed insert and the record');
  t.true(receiver.sent.every((s) => verifyWebhook(hook.secret, s.headers, s.body, clock.now()).valid));
  const cursor = (await store.get('relay_cursors', 'webhooks'))!;
  t.true(await store.replace('relay_cursors', { id: 'webhooks', position: 0, gap_since: null }, cursor.version));
  t.like(await app.webhooks.dispatchTick('host-1', { handoff: pool }), { handled: 5, enqueued: 0 }, 'events handed again');
  await pool.settled();
  t.is(receiver.sent.length, 5, 'nothing is posted twice');
  t.is(pool.inFlight, 0, 'the slots reserved for existing jobs were given back');
});

test('dispatch hand-off: a job handed to a process that then died is taken over after its lease', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, subscribe(FAST)));
  right(await app.identities.create(principal, { label: 'orphaned' }));
  const dead = app.webhooks.deliveryPool('dead', recordingTransport(() => new Promise(() => {})).transport);
  await app.webhooks.dispatchTick('dead', { handoff: dead });
  const page = { limit: 5, offset: 0 };
  t.like(right(await app.webhooks.deliveries(principal, hook.id, page)).items[0], { state: 'delivering', attempt: 0 });
  const live = recordingTransport();
  t.like(await app.webhooks.deliverTick('live', live.transport), { claimed: 0 }, 'leased by the dead process');
  clock.advance(30_000);
  t.like(await app.webhooks.deliverTick('live', live.transport), { claimed: 1, delivered: 1 });
  t.like(right(await app.webhooks.deliveries(principal, hook.id, page)).items[0], { state: 'delivered', attempt: 1 });
});

test('pool: an endpoint changed while the pool runs is used within endpointTtlMs of the clock', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, subscribe(FAST)));
  const { transport, sent } = recordingTransport();
  const pool = app.webhooks.deliveryPool('w', transport, { endpointTtlMs: 1000 });
  right(await app.identities.create(principal, { label: 'before' }));
  await app.webhooks.dispatchTick('w');
  await pool.fill();
  await pool.settled();
  right(await app.webhooks.update(principal, hook.id, { url: SLOW }));
  clock.advance(1001);
  right(await app.identities.create(principal, { label: 'after' }));
  await app.webhooks.dispatchTick('w');
  await pool.fill();
  await pool.settled();
  t.deepEqual(sent.map((s) => s.url), [FAST, SLOW]);
});

test('pool: close waits for the attempts in flight and takes nothing more on', async (t) => {
  const { app, principal, store } = await setupWebhooks();
  right(await app.webhooks.create(principal, subscribe(SLOW)));
  for (let i = 0; i < 3; i += 1) right(await app.identities.create(principal, { label: `c${i}` }));
  await app.webhooks.dispatchTick('d');
  const receiver = slowAndFast();
  const pool = app.webhooks.deliveryPool('w', receiver.transport, { concurrency: 4, perEndpoint: 1 });
  await pool.fill();
  await until(() => receiver.held.length === 1);
  let closed = false;
  const closing = pool.close().then(() => (closed = true));
  await new Promise((resolve) => setImmediate(resolve));
  t.false(closed, 'an attempt is still in flight');
  receiver.releaseAll();
  await closing;
  t.is(receiver.posted(SLOW), 1);
  t.false(pool.reserve('wh_any'), 'a closed pool takes no hand-off');
  t.is(await store.count('webhook_deliveries', { where: { status: 'pending' } }), 2, 'the rest wait for another worker');
});
