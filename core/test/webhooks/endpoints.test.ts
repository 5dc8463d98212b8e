import './tripwire.js';
import test from 'ava';
import { createEphemail, createMemoryDocumentStore } from '../../src/index.js';
import { newPrincipal, right, tagOf } from '../support.js';
import { ALL_SCOPES, HOOK_URL, setupWebhooks } from './support.js';

const body = { url: HOOK_URL, events: ['identity.provisioned' as const] };

test('webhooks: create answers the secret once, a masked preview and secret_issued; reads never show it', async (t) => {
  const { app, principal, store } = await setupWebhooks();
  const created = right(await app.webhooks.create(principal, { ...body, description: 'ci' }));
  t.regex(created.id, /^wh_[A-Za-z0-9_-]{22,}$/);
  t.regex(created.secret, /^whsec_[A-Za-z0-9]{40}$/);
  t.is(created.secretPreview, `whsec_••••${created.secret.slice(-4)}`);
  t.like(created, { url: HOOK_URL, events: ['identity.provisioned'], description: 'ci', secret_issued: true, rotated_at: null });
  const read = right(await app.webhooks.get(principal, created.id));
  t.false('secret' in read);
  const { secret: _secret, ...shown } = created;
  t.deepEqual(read, shown);
  t.false(JSON.stringify(await store.get('webhooks', created.id)).includes(created.secret), 'the stored record holds no plain secret');
  const page = right(await app.webhooks.list(principal, { limit: 10, offset: 0 }));
  t.like(page, { total: 1, limit: 10, offset: 0 });
  t.false(JSON.stringify(page).includes(created.secret));
});

test('webhooks: list is newest first and paged', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  const ids: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    ids.push(right(await app.webhooks.create(principal, body)).id);
    clock.advance(1000);
  }
  const first = right(await app.webhooks.list(principal, { limit: 2, offset: 0 }));
  const second = right(await app.webhooks.list(principal, { limit: 2, offset: 2 }));
  t.deepEqual([...first.items, ...second.items].map((w) => w.id), ids.reverse());
  t.is(first.total, 3);
});

test('webhooks: patch changes url, events and description (null clears it); delete answers and frees the id', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  const created = right(await app.webhooks.create(principal, { ...body, description: 'x' }));
  clock.advance(5000);
  const patched = right(await app.webhooks.update(principal, created.id, { url: 'https://other.example.org/h', events: ['email.received', 'extraction.completed'], description: null }));
  t.like(patched, { url: 'https://other.example.org/h', events: ['email.received', 'extraction.completed'], description: null, secretPreview: created.secretPreview });
  t.not(patched.updated_at, created.updated_at);
  t.like(right(await app.webhooks.update(principal, created.id, { description: 'kept url' })), { url: 'https://other.example.org/h', description: 'kept url' });
  t.is(tagOf(await app.webhooks.update(principal, created.id, { url: 'http://other.example.org/h' })), 'InvalidRequest');
  t.is(right(await app.webhooks.remove(principal, created.id)), undefined);
  t.is(tagOf(await app.webhooks.get(principal, created.id)), 'WebhookNotFound');
  t.is(tagOf(await app.webhooks.remove(principal, created.id)), 'WebhookNotFound');
});

test('webhooks: URL rules — https only; http only to loopback in development mode; no credentials in the URL', async (t) => {
  const { app, principal } = await setupWebhooks();
  for (const url of ['http://hooks.example.com/', 'ftp://hooks.example.com/', 'https://user:pw@hooks.example.com/', 'http://127.0.0.1:8080/', 'not a url']) {
    const outcome = await app.webhooks.create(principal, { ...body, url });
    t.is(tagOf(outcome), 'InvalidRequest', url);
    if (outcome._tag === 'Left' && outcome.left._tag === 'InvalidRequest') t.is(outcome.left.issues[0]?.path, 'body.url');
  }
  const dev = await setupWebhooks({ allowHttpLoopback: true });
  for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost:9000/x', 'http://[::1]:8080/']) t.is(tagOf(await dev.app.webhooks.create(dev.principal, { ...body, url })), 'Right', url);
  t.is(tagOf(await dev.app.webhooks.create(dev.principal, { ...body, url: 'http://hooks.example.com/' })), 'InvalidRequest');
});

test('webhooks: the URL guard given to the service decides (the host passes the SSRF guard)', async (t) => {
  const seen: string[] = [];
  const app = createEphemail({
    store: createMemoryDocumentStore(),
    inboxDomain: 'inbox.test',
    urlGuard: { check: async (url) => (seen.push(url), url.includes('10.0.0.1') ? { ok: false, reason: 'private address' } : { ok: true }) },
  });
  await app.init();
  const principal = await newPrincipal(app, { scopes: ALL_SCOPES });
  t.is(tagOf(await app.webhooks.create(principal, { ...body, url: 'https://10.0.0.1/' })), 'InvalidRequest');
  t.is(tagOf(await app.webhooks.create(principal, body)), 'Right');
  t.deepEqual(seen, ['https://10.0.0.1/', HOOK_URL]);
});

test('webhooks: quota per plan — starter allows 2 endpoints; a delete frees a place', async (t) => {
  const { app, principal } = await setupWebhooks({ plan: 'starter' });
  const a = right(await app.webhooks.create(principal, body));
  right(await app.webhooks.create(principal, body));
  const over = await app.webhooks.create(principal, body);
  t.deepEqual(over._tag === 'Left' ? over.left : undefined, { _tag: 'QuotaExceeded', resource: 'webhook endpoints', limit: 2, requested: 1 });
  right(await app.webhooks.remove(principal, a.id));
  t.is(tagOf(await app.webhooks.create(principal, body)), 'Right');
});

test('webhooks: race — 20 concurrent creations at a quota of 2 admit exactly 2', async (t) => {
  const { app, principal } = await setupWebhooks({ plan: 'starter' });
  const outcomes = await Promise.all(Array.from({ length: 20 }, () => app.webhooks.create(principal, body)));
  t.is(outcomes.filter((o) => o._tag === 'Right').length, 2);
  t.is(right(await app.webhooks.list(principal, { limit: 50, offset: 0 })).total, 2);
});

test('webhooks: a place taken by a creation that crashed before writing is given back after a minute', async (t) => {
  const { app, principal, clock, store } = await setupWebhooks({ plan: 'starter' });
  const slots = `webhook_endpoints:${principal.orgId}`;
  await store.insert('counters', { id: slots, slots: [{ id: 'wh_crashed1', at: clock.now().toISOString() }, { id: 'wh_crashed2', at: clock.now().toISOString() }] });
  t.is(tagOf(await app.webhooks.create(principal, body)), 'QuotaExceeded', 'too fresh to be called orphaned');
  clock.advance(61_000);
  t.is(tagOf(await app.webhooks.create(principal, body)), 'Right');
});

test('webhooks: another tenant’s endpoint answers exactly like an unknown one, for every operation', async (t) => {
  const { app, principal } = await setupWebhooks();
  const other = await newPrincipal(app, { scopes: ALL_SCOPES });
  const hook = right(await app.webhooks.create(principal, body));
  const event = right(await app.identities.create(principal, { label: 'x' }));
  const operations = [
    (p: typeof principal, id: string) => app.webhooks.get(p, id),
    (p: typeof principal, id: string) => app.webhooks.update(p, id, { description: 'stolen' }),
    (p: typeof principal, id: string) => app.webhooks.rotateSecret(p, id),
    (p: typeof principal, id: string) => app.webhooks.replay(p, id, 'evt_any'),
    (p: typeof principal, id: string) => app.webhooks.deliveries(p, id, { limit: 10, offset: 0 }),
    (p: typeof principal, id: string) => app.webhooks.remove(p, id),
  ];
  for (const operation of operations) {
    const foreign = await operation(other, hook.id);
    const unknown = await operation(other, 'wh_doesnotexist000000000000');
    t.deepEqual(foreign._tag === 'Left' ? { ...foreign.left, id: 'x' } : foreign, unknown._tag === 'Left' ? { ...unknown.left, id: 'x' } : unknown);
    t.is(tagOf(foreign), 'WebhookNotFound');
  }
  t.is(right(await app.webhooks.list(other, { limit: 10, offset: 0 })).total, 0);
  t.like(right(await app.webhooks.get(principal, hook.id)), { description: null, secretPreview: hook.secretPreview });
  const ownHook = right(await app.webhooks.create(other, body));
  const events = right(await app.events.list(principal, event.id, { limit: 1, offset: 0 }));
  t.is(tagOf(await app.webhooks.replay(other, ownHook.id, events.items[0]!.id)), 'EventNotFound', 'another tenant’s event is unknown');
});

test('webhooks: rotate answers the new secret once; replay of an unknown event is event_not_found', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, body));
  const rotated = right(await app.webhooks.rotateSecret(principal, hook.id));
  t.not(rotated.secret, hook.secret);
  t.like(rotated, { id: hook.id, secretPreview: `whsec_••••${rotated.secret.slice(-4)}`, rotated_at: clock.now().toISOString() });
  t.is(rotated.previous_secret_expires_at, new Date(clock.now().getTime() + 86_400_000).toISOString());
  t.like(right(await app.webhooks.get(principal, hook.id)), { secretPreview: rotated.secretPreview, rotated_at: rotated.rotated_at });
  t.is(tagOf(await app.webhooks.replay(principal, hook.id, 'evt_unknown')), 'EventNotFound');
});

test('webhooks: a data key of the wrong size is refused at start-up; without one secrets are not durable', (t) => {
  t.throws(() => createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'x.test', dataKey: Buffer.alloc(16) }), { message: /32 bytes/ });
  t.false(createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'x.test' }).webhooks.durableSecrets);
  t.throws(() => createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'x.test', config: { webhookRetry: { attempts: 0 } } }), { message: /attempts/ });
});
