import type { RequestListener } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { WebhookTransport } from '@ephemail/core';
import { createEphemail, createMemoryDocumentStore, FakeClock, signWebhook } from '@ephemail/core';
import type { ReceiverOptions, WebhookEvent } from '../src/index.js';
import { createWebhookReceiver, SeenIds } from '../src/index.js';

const SECRET = 'whsec_receiver_test_secret_0123456789abcd';
const NOW = new Date('2026-03-01T12:00:00.000Z');
const TS = Math.floor(NOW.getTime() / 1000);

/** The receiver on a free loopback port. */
const start = async (options: Partial<ReceiverOptions> = {}) => {
  const handled: WebhookEvent[] = [];
  const server = createServer(createWebhookReceiver({ secrets: SECRET, now: () => NOW, onEvent: (event) => void handled.push(event), ...options }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const post = async (body: string, headers: Record<string, string>) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const signed = (body: string, secret = SECRET, ts = TS) => post(body, { 'x-timestamp': String(ts), 'x-signature': signWebhook(secret, ts, body) });
  return { url, handled, close, post, signed };
};

const event = (id: string) => JSON.stringify({ id, type: 'identity.provisioned', timestamp: NOW.toISOString(), data: { identity_id: 'ident_1', email: 'a@inbox.test' } });

test('receiver: a valid delivery is received once; the same id again is a duplicate', async (t) => {
  const r = await start();
  try {
    t.deepEqual(await r.signed(event('evt_1')), { status: 200, json: { received: true } });
    t.deepEqual(await r.signed(event('evt_1')), { status: 200, json: { duplicate: true } });
    t.deepEqual(r.handled.map((e) => e.id), ['evt_1']);
  } finally {
    await r.close();
  }
});

test('receiver: bad, stale or missing signatures answer 403 invalid_webhook_signature', async (t) => {
  const r = await start();
  try {
    const forbidden = { status: 403, json: { error: 'invalid_webhook_signature' } };
    t.deepEqual(await r.signed(event('evt_2'), 'whsec_wrong'), forbidden);
    t.deepEqual(await r.signed(event('evt_2'), SECRET, TS - 301), forbidden);
    t.deepEqual(await r.signed(event('evt_2'), SECRET, TS + 301), forbidden);
    t.deepEqual(await r.post(event('evt_2'), {}), forbidden);
    const body = event('evt_2');
    t.deepEqual(await r.post(body.replace('a@inbox', 'b@inbox'), { 'x-timestamp': String(TS), 'x-signature': signWebhook(SECRET, TS, body) }), forbidden);
    t.is(r.handled.length, 0);
  } finally {
    await r.close();
  }
});

test('receiver: a signed body that is not a delivery answers 400 invalid_payload', async (t) => {
  const r = await start();
  try {
    for (const body of ['not json', '[]', '{"id":"evt_3"}', '{"id":"","type":"x","timestamp":"t","data":{}}', '{"id":"evt_3","type":"x","timestamp":"t","data":[]}', '{"id":"evt_3","type":"x","timestamp":"t","data":{"email":"a@b.c"}}']) {
      t.deepEqual(await r.signed(body), { status: 400, json: { error: 'invalid_payload' } }, body);
    }
  } finally {
    await r.close();
  }
});

test('receiver: during a rotation it accepts either secret; a failing handler answers 500 so the sender retries', async (t) => {
  let fail = true;
  const r = await start({
    secrets: ['whsec_new', SECRET],
    onEvent: () => {
      if (fail) throw new Error('database down');
    },
  });
  try {
    t.is((await r.signed(event('evt_4'), 'whsec_new')).status, 500);
    fail = false;
    t.deepEqual(await r.signed(event('evt_4'), SECRET), { status: 200, json: { received: true } }, 'not remembered after a failure');
  } finally {
    await r.close();
  }
});

test('receiver: the memory of seen ids is bounded', (t) => {
  const seen = new SeenIds(3);
  for (const id of ['a', 'b', 'c', 'd']) seen.add(id);
  t.is(seen.size, 3);
  t.false(seen.has('a'), 'the oldest was forgotten');
  t.true(seen.has('d'));
});

test('receiver: end to end — ephemail’s deliveries are verified, and a replay is answered as a duplicate', async (t) => {
  const clock = new FakeClock(NOW);
  const service = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, config: { allowHttpLoopback: true } });
  await service.init();
  const key = await service.auth.createApiKey({ orgId: 'org_rx', projectIds: ['proj_rx'], scopes: ['identities:write', 'webhooks:write'], plan: 'growth' });
  if (key._tag === 'Left') throw new Error(key.left._tag);
  const principal = await service.auth.authenticate({ authorization: `Bearer ${key.right.key}`, orgId: 'org_rx', projectId: 'proj_rx' });
  if (principal._tag === 'Left') throw new Error(principal.left._tag);
  const answers: unknown[] = [];
  // Loopback only: a plain fetch stands in for the guarded client of the host.
  const transport: WebhookTransport = {
    post: async (url, headers, body) => {
      const res = await fetch(url, { method: 'POST', headers, body });
      answers.push(await res.json());
      return { status: res.status };
    },
  };
  // The endpoint's URL needs the port and the receiver needs the secret: listen first, then wire.
  let handler: RequestListener = (_req, res) => void res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const hook = await service.webhooks.create(principal.right, { url, events: ['identity.provisioned'] });
  if (hook._tag === 'Left') throw new Error(hook.left._tag);
  handler = createWebhookReceiver({ secrets: hook.right.secret, now: () => clock.now() });
  await service.identities.create(principal.right, { label: 'end to end' });
  await service.webhooks.dispatchTick('example');
  t.like(await service.webhooks.deliverTick('example', transport), { delivered: 1 });
  const log = await service.webhooks.deliveries(principal.right, hook.right.id, { limit: 1, offset: 0 });
  if (log._tag === 'Left') throw new Error(log.left._tag);
  clock.advance(60_000);
  await service.webhooks.replay(principal.right, hook.right.id, log.right.items[0]!.event_id);
  t.like(await service.webhooks.deliverTick('example', transport), { delivered: 1 });
  t.deepEqual(answers, [{ received: true }, { duplicate: true }]);
});
