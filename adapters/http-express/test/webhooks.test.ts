import test from 'ava';
import { verifyWebhook } from '@ephemail/core';
import { RESPONSE_SCHEMAS } from '../src/index.js';
import type { Api, Tenant } from './support.js';
import { startApi } from './support.js';

const SCOPES = ['identities:read', 'identities:write', 'webhooks:read', 'webhooks:write'];
const HOOK = { url: 'https://hooks.example.com/in', events: ['identity.provisioned', 'identity.squashed'], description: 'ci' };

const withApi = (fn: (api: Api, tenant: Tenant) => Promise<void>) => async () => {
  const api = await startApi();
  try {
    await fn(api, await api.tenant(SCOPES));
  } finally {
    await api.close();
  }
};

const noStore = (headers: Headers) => headers.get('cache-control') === 'no-store, max-age=0' && headers.get('pragma') === 'no-cache';

test('POST /v1/webhooks answers 201 with the secret once, a masked preview, and no-store headers', async (t) => {
  await withApi(async (api, tenant) => {
    const created = await api.call('POST', '/v1/webhooks', { tenant, body: HOOK });
    t.is(created.status, 201);
    t.true(noStore(created.headers));
    t.like(created.json, { url: HOOK.url, events: HOOK.events, description: 'ci', secret_issued: true });
    t.regex(created.json.secret, /^whsec_[A-Za-z0-9]{40}$/);
    t.is(created.json.secretPreview, `whsec_••••${created.json.secret.slice(-4)}`);
    const got = await api.call('GET', `/v1/webhooks/${created.json.id}`, { tenant });
    t.is(got.status, 200);
    t.false('secret' in got.json);
    const list = await api.call('GET', '/v1/webhooks', { tenant });
    t.like(list.json, { total: 1, limit: 50, offset: 0 });
    t.false(list.text.includes(created.json.secret));
  })();
});

test('POST /v1/webhooks replayed with the same Idempotency-Key answers the same endpoint and secret', async (t) => {
  await withApi(async (api, tenant) => {
    const first = await api.call('POST', '/v1/webhooks', { tenant, body: HOOK, idem: 'hook-1' });
    const again = await api.call('POST', '/v1/webhooks', { tenant, body: HOOK, idem: 'hook-1' });
    t.is(again.headers.get('idempotent-replayed'), 'true');
    t.deepEqual(again.json, first.json);
    t.is((await api.call('GET', '/v1/webhooks', { tenant })).json.total, 1);
  })();
});

test('webhooks: validation and URL rules answer 400 invalid_request with the field', async (t) => {
  await withApi(async (api, tenant) => {
    const cases: [unknown, string][] = [
      [{ ...HOOK, url: 'http://hooks.example.com/' }, 'body.url'],
      [{ ...HOOK, url: 'https://user:pw@hooks.example.com/' }, 'body.url'],
      [{ ...HOOK, events: ['identity.activated'] }, 'body.events.0'],
      [{ ...HOOK, events: [] }, 'body.events'],
      [{ ...HOOK, events: ['email.received', 'email.received'] }, 'body.events'],
      [{ ...HOOK, secret: 'mine' }, 'body'],
    ];
    for (const [body, path] of cases) {
      const res = await api.call('POST', '/v1/webhooks', { tenant, body });
      t.is(res.status, 400, JSON.stringify(body));
      t.is(res.json.error.code, 'invalid_request');
      t.true(res.json.error.details.issues.some((issue: { path: string }) => issue.path === path), `${path} in ${res.text}`);
    }
    t.is((await api.call('POST', '/v1/webhooks', { tenant, body: HOOK, idem: false })).json.error.code, 'missing_idempotency_key');
  })();
});

test('PATCH and DELETE /v1/webhooks/{id}: 200 with the change, then 204 and 404 webhook_not_found', async (t) => {
  await withApi(async (api, tenant) => {
    const id = (await api.call('POST', '/v1/webhooks', { tenant, body: HOOK })).json.id;
    const patched = await api.call('PATCH', `/v1/webhooks/${id}`, { tenant, body: { events: ['email.received'], description: null } });
    t.is(patched.status, 200);
    t.like(patched.json, { events: ['email.received'], description: null, url: HOOK.url });
    t.is((await api.call('PATCH', `/v1/webhooks/${id}`, { tenant, body: {} })).status, 400, 'nothing to change');
    const deleted = await api.call('DELETE', `/v1/webhooks/${id}`, { tenant });
    t.is(deleted.status, 204);
    t.is(deleted.text, '');
    const gone = await api.call('GET', `/v1/webhooks/${id}`, { tenant });
    t.is(gone.status, 404);
    t.is(gone.json.error.code, 'webhook_not_found');
  })();
});

test('POST /v1/webhooks/{id}/rotate-secret answers the new secret; deliveries carry both signatures during the overlap', async (t) => {
  await withApi(async (api, tenant) => {
    const created = (await api.call('POST', '/v1/webhooks', { tenant, body: HOOK })).json;
    const rotated = await api.call('POST', `/v1/webhooks/${created.id}/rotate-secret`, { tenant, body: {} });
    t.is(rotated.status, 200);
    t.true(noStore(rotated.headers));
    t.like(rotated.json, { id: created.id, rotated_at: '2026-03-01T12:00:00.000Z' });
    t.not(rotated.json.secret, created.secret);
    await api.call('POST', '/v1/identities', { tenant, body: { label: 'x' } });
    const sent: { headers: Record<string, string>; body: string }[] = [];
    await api.service.webhooks.dispatchTick('t');
    await api.service.webhooks.deliverTick('t', { post: async (_url, headers, body) => (sent.push({ headers, body }), { status: 200 }) });
    t.true(verifyWebhook(rotated.json.secret, sent[0]!.headers, sent[0]!.body, api.clock.now()).valid);
    t.true(verifyWebhook(created.secret, sent[0]!.headers, sent[0]!.body, api.clock.now()).valid);
  })();
});

test('POST /v1/webhooks/{id}/replay answers 202 queued; the delivery log shows it; unknown events are 404 event_not_found', async (t) => {
  await withApi(async (api, tenant) => {
    const hook = (await api.call('POST', '/v1/webhooks', { tenant, body: HOOK })).json;
    const identity = (await api.call('POST', '/v1/identities', { tenant, body: { label: 'x' } })).json;
    const event = (await api.call('GET', `/v1/identities/${identity.id}/events/latest`, { tenant })).json;
    const replay = await api.call('POST', `/v1/webhooks/${hook.id}/replay`, { tenant, body: { event_id: event.id } });
    t.is(replay.status, 202);
    t.like(replay.json, { event_id: event.id, webhook_id: hook.id, status: 'queued' });
    const missing = await api.call('POST', `/v1/webhooks/${hook.id}/replay`, { tenant, body: { event_id: 'evt_nope' } });
    t.is(missing.status, 404);
    t.is(missing.json.error.code, 'event_not_found');
    await api.service.webhooks.deliverTick('t', { post: async () => ({ status: 500 }) });
    const log = await api.call('GET', `/v1/webhooks/${hook.id}/deliveries?limit=10`, { tenant });
    t.is(log.status, 200);
    t.like(log.json, { total: 1, limit: 10, offset: 0 });
    t.like(log.json.items[0], { event_id: event.id, state: 'pending', attempt: 1, status_code: 500, error: 'the receiver answered 500', replay: true });
    t.truthy(log.json.items[0].next_retry_at);
    t.like((await api.call('GET', `/v1/webhooks/${hook.id}/deliveries?state=delivered`, { tenant })).json, { total: 0 });
    t.is((await api.call('GET', `/v1/webhooks/${hook.id}/deliveries?state=lost`, { tenant })).status, 400);
  })();
});

test('GET /v1/webhooks/{id}/deliveries lists every attempt newest first, as a receiver debugging retries reads it', async (t) => {
  await withApi(async (api, tenant) => {
    const hook = (await api.call('POST', '/v1/webhooks', { tenant, body: HOOK })).json;
    await api.call('POST', '/v1/identities', { tenant, body: { label: 'retried' } });
    await api.service.webhooks.dispatchTick('t');
    const answers = [{ status: 502 }, { error: 'timeout after 10000 ms' }, { status: 200 }];
    let sent = 0;
    const transport = { post: async () => answers[sent++]! };
    await api.service.webhooks.deliverTick('t', transport);
    api.clock.advance(60_000);
    await api.service.webhooks.deliverTick('t', transport);
    const retrying = (await api.call('GET', `/v1/webhooks/${hook.id}/deliveries`, { tenant })).json;
    t.notThrows(() => RESPONSE_SCHEMAS.DeliveryAttemptPage.parse(retrying));
    t.deepEqual(retrying.items.map((a: any) => [a.attempt, a.status_code, a.error, a.next_retry_at !== null]), [
      [2, null, 'timeout after 10000 ms', true],
      [1, 502, 'the receiver answered 502', false],
    ]);
    api.clock.advance(60 * 60_000);
    await api.service.webhooks.deliverTick('t', transport);
    const log = (await api.call('GET', `/v1/webhooks/${hook.id}/deliveries?limit=2`, { tenant })).json;
    t.like(log, { total: 3, limit: 2, offset: 0 });
    t.deepEqual(log.items.map((a: any) => [a.attempt, a.state, a.status_code, a.next_retry_at]), [
      [3, 'delivered', 200, null],
      [2, 'pending', null, null],
    ]);
    t.true(log.items.every((a: any) => a.event_id === retrying.items[0].event_id && a.delivery_id === retrying.items[0].delivery_id));
    const doc = (await api.call('GET', '/v1/openapi.json')).json;
    t.is(doc.paths['/v1/webhooks/{webhook_id}/deliveries'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/DeliveryAttemptPage');
  })();
});

test('webhooks: scopes — webhooks:read lists but cannot create; webhooks:write alone cannot list', async (t) => {
  await withApi(async (api) => {
    const reader = await api.tenant(['webhooks:read']);
    const writer = await api.tenant(['webhooks:write']);
    const denied = await api.call('POST', '/v1/webhooks', { tenant: reader, body: HOOK });
    t.is(denied.status, 403);
    t.deepEqual(denied.json.error.details.missing_scopes, ['webhooks:write']);
    t.is((await api.call('GET', '/v1/webhooks', { tenant: reader })).status, 200);
    t.is((await api.call('POST', '/v1/webhooks', { tenant: writer, body: HOOK })).status, 201);
    t.is((await api.call('GET', '/v1/webhooks', { tenant: writer })).status, 403);
  })();
});

test('webhooks: the plan quota answers 403 quota_exceeded', async (t) => {
  await withApi(async (api) => {
    const starter = await api.tenant(SCOPES, 'starter');
    t.is((await api.call('POST', '/v1/webhooks', { tenant: starter, body: HOOK })).status, 201);
    t.is((await api.call('POST', '/v1/webhooks', { tenant: starter, body: HOOK })).status, 201);
    const over = await api.call('POST', '/v1/webhooks', { tenant: starter, body: HOOK });
    t.is(over.status, 403);
    t.like(over.json.error, { code: 'quota_exceeded', details: { resource: 'webhook endpoints', limit: 2, requested: 1 } });
  })();
});

test('webhooks: every route is in the OpenAPI document, with its scopes', async (t) => {
  await withApi(async (api) => {
    const doc = (await api.call('GET', '/v1/openapi.json')).json;
    for (const [path, methods] of Object.entries({ '/v1/webhooks': ['post', 'get'], '/v1/webhooks/{webhook_id}': ['get', 'patch', 'delete'], '/v1/webhooks/{webhook_id}/rotate-secret': ['post'], '/v1/webhooks/{webhook_id}/replay': ['post'], '/v1/webhooks/{webhook_id}/deliveries': ['get'] })) {
      for (const method of methods) t.truthy(doc.paths[path]?.[method], `${method} ${path}`);
    }
    t.is(doc.paths['/v1/webhooks'].post.description, 'Scopes: webhooks:write.');
    t.is(doc.paths['/v1/webhooks/{webhook_id}/deliveries'].get.description, 'Scopes: webhooks:read.');
    t.deepEqual(doc.paths['/v1/webhooks'].post.requestBody.content['application/json'].schema.properties.events.items.enum.length, 8);
  })();
});
