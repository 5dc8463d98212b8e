import '../../../core/test/webhooks/tripwire.js';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import test from 'ava';
import type { PlanName } from '@ephemail/core';
import { createEphemail, createMemoryDocumentStore, FakeClock, verifyWebhook } from '@ephemail/core';
import type { Resolver } from '../src/index.js';
import { createGuardedClient, createUrlGuard } from '../src/index.js';
import { startServer } from './support.js';

const right = <A>(either: { _tag: 'Left'; left: { _tag: string } } | { _tag: 'Right'; right: A }): A => {
  if (either._tag === 'Left') throw new Error(`expected Right, got ${either.left._tag}`);
  return either.right;
};

/** The service in development mode, with the guard and a client to real loopback receivers. */
const setup = async (resolver?: Resolver) => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const app = createEphemail({
    store: createMemoryDocumentStore(),
    inboxDomain: 'inbox.test',
    clock,
    dataKey: Buffer.alloc(32, 3),
    random: () => 0.5,
    urlGuard: createUrlGuard(),
    config: { allowHttpLoopback: true },
  });
  await app.init();
  const plan: PlanName = 'growth';
  const key = right(await app.auth.createApiKey({ orgId: 'org_e2e', projectIds: ['proj_e2e'], scopes: ['identities:write', 'webhooks:write', 'webhooks:read'], plan }));
  const principal = right(await app.auth.authenticate({ authorization: `Bearer ${key.key}`, orgId: 'org_e2e', projectId: 'proj_e2e' }));
  const client = createGuardedClient({ allowHttpLoopback: true, resolver });
  return { app, clock, principal, client };
};

test('delivery: a real receiver gets the signed event; 2xx delivered, 4xx/5xx retried, 410 failed', async (t) => {
  const statuses = [200, 400, 503, 410];
  let secret = '';
  const verified: boolean[] = [];
  const server = await startServer((req, res, body) => {
    verified.push(verifyWebhook(secret, req.headers, body, new Date('2026-03-01T12:00:00.000Z')).valid);
    res.statusCode = statuses[(server.received.length - 1) % statuses.length]!;
    res.end();
  });
  const { app, principal, client } = await setup();
  try {
    const hook = right(await app.webhooks.create(principal, { url: `http://127.0.0.1:${server.port}/hook`, events: ['identity.provisioned'] }));
    secret = hook.secret;
    for (let i = 0; i < 4; i += 1) right(await app.identities.create(principal, { label: `e${i}` }));
    await app.webhooks.dispatchTick('w');
    const report = await app.webhooks.deliverTick('w', client, { concurrency: 1 });
    t.like(report, { claimed: 4, delivered: 1, retrying: 2, failed: 1 });
    t.deepEqual(verified, [true, true, true, true]);
    const log = right(await app.webhooks.deliveries(principal, hook.id, { limit: 10, offset: 0 }));
    t.deepEqual(log.items.map((d) => `${d.state} ${d.status_code}`).sort(), ['delivered 200', 'failed 410', 'pending 400', 'pending 503']);
    t.true(server.received.every((r) => r.headers['x-signature']?.length === 64 && /^\d{10}$/.test(String(r.headers['x-timestamp']))));
  } finally {
    client.close();
    await server.close();
  }
});

test('delivery: a timeout and a refused connection are recorded as the attempt’s error', async (t) => {
  const silent = await startServer(() => {});
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const { app, principal, client } = await setup();
  try {
    const slow = right(await app.webhooks.create(principal, { url: `http://127.0.0.1:${silent.port}/`, events: ['identity.provisioned'] }));
    const gone = right(await app.webhooks.create(principal, { url: `http://127.0.0.1:${closedPort}/`, events: ['identity.provisioned'] }));
    right(await app.identities.create(principal, { label: 'x' }));
    await app.webhooks.dispatchTick('w');
    t.like(await app.webhooks.deliverTick('w', client, { timeoutMs: 250 }), { retrying: 2 });
    const errorOf = async (id: string) => right(await app.webhooks.deliveries(principal, id, { limit: 1, offset: 0 })).items[0]!.error;
    t.is(await errorOf(slow.id), 'timeout after 250 ms');
    t.is(await errorOf(gone.id), 'connection refused');
  } finally {
    client.close();
    await silent.close();
  }
});

test('delivery: every attempt checks the destination again — a name that starts resolving privately is refused', async (t) => {
  let answer = '127.0.0.1';
  const server = await startServer((_req, res) => res.end());
  const { app, principal, client } = await setup(async () => [{ address: answer, family: 4 }]);
  try {
    const hook = right(await app.webhooks.create(principal, { url: `https://localhost:${server.port}/`, events: ['identity.provisioned'] }));
    t.like(await app.webhooks.create(principal, { url: 'https://10.0.0.1/', events: ['identity.provisioned'] }), { _tag: 'Left' }, 'refused at creation');
    answer = '10.0.0.1';
    right(await app.identities.create(principal, { label: 'rebound' }));
    await app.webhooks.dispatchTick('w');
    t.like(await app.webhooks.deliverTick('w', client), { retrying: 1 });
    const [job] = right(await app.webhooks.deliveries(principal, hook.id, { limit: 1, offset: 0 })).items;
    t.regex(job!.error!, /^refused: localhost resolves to a refused address: 10\.0\.0\.1 is in a special-purpose range \(private\)$/);
    t.is(server.received.length, 0);
  } finally {
    client.close();
    await server.close();
  }
});
