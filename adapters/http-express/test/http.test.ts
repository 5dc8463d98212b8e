import { randomUUID } from 'node:crypto';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import type { Api } from './support.js';
import { startApi } from './support.js';

let api: Api;
test.before(async () => {
  api = await startApi();
});
test.after.always(() => api.close());

const envelopeOk = (t: any, res: any, status: number, code: string) => {
  t.is(res.status, status, res.text);
  t.is(res.json.error.code, code);
  t.is(typeof res.json.error.message, 'string');
  t.is(res.json.requestId, res.headers.get('x-request-id'));
  t.is(res.json.error.details.requestId, res.json.requestId);
  t.regex(res.json.requestId, /^req_[A-Za-z0-9_-]{24}$/, 'req_ and 24 URL-safe characters, as docs/api.md says');
  t.is(typeof res.json.timestamp, 'string');
  t.is(typeof res.json.path, 'string');
  t.is(typeof res.json.retryable, 'boolean');
};

test('http: create answers 201 with a provisioned identity, get answers it back', async (t) => {
  const tenant = await api.tenant();
  const created = await api.call('POST', '/v1/identities', { tenant, body: { label: 'x', ttl_hours: 3 } });
  t.is(created.status, 201);
  t.is(created.json.status, 'provisioned');
  t.is(created.headers.get('cache-control'), 'no-store, max-age=0');
  const got = await api.call('GET', `/v1/identities/${created.json.id}`, { tenant });
  t.deepEqual(got.json, created.json);
});

test('http: a missing or invalid credential answers 401 unauthorized in the envelope', async (t) => {
  envelopeOk(t, await api.call('GET', '/v1/me'), 401, 'unauthorized');
  const tenant = await api.tenant();
  envelopeOk(t, await api.call('GET', '/v1/me', { tenant: { ...tenant, key: `${tenant.key}x` } }), 401, 'unauthorized');
});

test('http: missing tenant headers answer 400, mismatching ones 403 scope_mismatch', async (t) => {
  const tenant = await api.tenant();
  const res = await api.call('GET', '/v1/identities', { headers: { authorization: `Bearer ${tenant.key}` } });
  envelopeOk(t, res, 400, 'invalid_request');
  const half = await api.call('GET', '/v1/me', { headers: { authorization: `Bearer ${tenant.key}`, 'x-org-id': tenant.orgId } });
  envelopeOk(t, half, 400, 'invalid_request');
  envelopeOk(t, await api.call('GET', '/v1/me', { tenant: { ...tenant, orgId: 'org_other' } }), 403, 'scope_mismatch');
  envelopeOk(t, await api.call('GET', '/v1/me', { tenant: { ...tenant, projectId: 'proj_other' } }), 403, 'scope_mismatch');
});

test('http: a credential without the scope answers 403 forbidden; /v1/me needs none', async (t) => {
  const tenant = await api.tenant(['identities:read']);
  envelopeOk(t, await api.call('POST', '/v1/identities', { tenant, body: { label: 'x' } }), 403, 'forbidden');
  const me = await api.call('GET', '/v1/me', { tenant });
  t.deepEqual(me.json, { organization_id: tenant.orgId, project_id: tenant.projectId, projects: [tenant.projectId], scopes: ['identities:read'] });
});

test('http: /v1/me without tenant headers names the key\'s organization and projects (project_id null when it has several), and a token\'s one project', async (t) => {
  const one = await api.tenant(['identities:read']);
  const bare = (key: string) => api.call('GET', '/v1/me', { headers: { authorization: `Bearer ${key}` } });
  t.deepEqual((await bare(one.key)).json, { organization_id: one.orgId, project_id: one.projectId, projects: [one.projectId], scopes: ['identities:read'] });
  const orgId = `org_${randomUUID().slice(0, 8)}`;
  const created = await api.service.auth.createApiKey({ orgId, projectIds: ['proj_a', 'proj_b'], scopes: ['identities:read'], plan: 'growth' });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  const several = await bare(created.right.key);
  t.is(several.status, 200);
  t.deepEqual(several.json, { organization_id: orgId, project_id: null, projects: ['proj_a', 'proj_b'], scopes: ['identities:read'] });
  const tenant = { key: created.right.key, orgId, projectId: 'proj_b' };
  const token = (await api.call('POST', '/v1/auth/tokens', { tenant, body: { scopes: ['identities:read'] } })).json.access_token;
  t.deepEqual((await bare(token)).json.projects, ['proj_b']);
  envelopeOk(t, await bare(`${created.right.key}x`), 401, 'unauthorized');
  // Only the profile is answered without headers: the key still cannot act anywhere unnamed.
  envelopeOk(t, await api.call('GET', '/v1/identities', { headers: { authorization: `Bearer ${created.right.key}` } }), 400, 'invalid_request');
});

test('http: a mutation without Idempotency-Key answers 400 missing_idempotency_key', async (t) => {
  const tenant = await api.tenant();
  envelopeOk(t, await api.call('POST', '/v1/identities', { tenant, body: { label: 'x' }, idem: false }), 400, 'missing_idempotency_key');
  envelopeOk(t, await api.call('POST', '/v1/identities', { tenant, body: { label: 'x' }, idem: 'k'.repeat(256) }), 400, 'invalid_request');
});

test('http: strict validation lists every issue; unknown fields are refused', async (t) => {
  const tenant = await api.tenant();
  const res = await api.call('POST', '/v1/identities', { tenant, body: { ttl_hours: 0, colour: 'red' } });
  envelopeOk(t, res, 400, 'invalid_request');
  const paths = res.json.error.details.issues.map((issue: { path: string }) => issue.path).sort();
  t.true(paths.includes('body.label'));
  t.true(paths.includes('body.ttl_hours'));
  t.true(res.json.error.details.issues.some((issue: { message: string }) => issue.message.includes('colour')));
  envelopeOk(t, await api.call('GET', '/v1/identities?limit=201', { tenant }), 400, 'invalid_request');
  envelopeOk(t, await api.call('GET', '/v1/identities?status=alive', { tenant }), 400, 'invalid_request');
  envelopeOk(t, await api.call('POST', '/v1/identities/ident_x/extend', { tenant, body: { additional_hours: 721 } }), 400, 'invalid_request');
});

test('http: a missing required field says "<field> is required", for every body schema, keeping details.issues', async (t) => {
  const tenant = await api.tenant();
  const res = await api.call('POST', '/v1/identities', { tenant, body: {} });
  envelopeOk(t, res, 400, 'invalid_request');
  t.deepEqual(res.json.error.details.issues, [{ path: 'body.label', message: 'label is required' }]);
  t.regex(res.json.error.message, /label is required/);
  const extend = await api.call('POST', '/v1/identities/ident_x/extend', { tenant, body: {} });
  t.deepEqual(extend.json.error.details.issues, [{ path: 'body.additional_hours', message: 'additional_hours is required' }]);
  // A field that is present but wrong keeps the schema's own message.
  const wrong = await api.call('POST', '/v1/identities', { tenant, body: { label: 5 } });
  t.is(wrong.json.error.details.issues[0].path, 'body.label');
  t.notRegex(wrong.json.error.details.issues[0].message, /required/);
});

test('http: malformed JSON answers 400 invalid_json, a body over 1 MiB 413 payload_too_large', async (t) => {
  const tenant = await api.tenant();
  envelopeOk(t, await api.call('POST', '/v1/identities', { tenant, rawBody: '{"label":' }), 400, 'invalid_json');
  const big = JSON.stringify({ label: 'x', metadata: { blob: 'a'.repeat(1_100_000) } });
  envelopeOk(t, await api.call('POST', '/v1/identities', { tenant, rawBody: big }), 413, 'payload_too_large');
});

test('http: unknown routes answer 404 route_not_found, wrong methods 405 with Allow', async (t) => {
  envelopeOk(t, await api.call('GET', '/v1/nothing'), 404, 'route_not_found');
  const res = await api.call('PUT', '/v1/identities', { idem: false });
  envelopeOk(t, res, 405, 'method_not_allowed');
  t.is(res.headers.get('allow'), 'POST, GET, HEAD');
});

test('http: DELETE on an identity answers 405 with Allow and names POST /v1/identities/{id}/squash', async (t) => {
  const tenant = await api.tenant();
  const res = await api.call('DELETE', '/v1/identities/ident_abc', { tenant });
  envelopeOk(t, res, 405, 'method_not_allowed');
  t.is(res.headers.get('allow'), 'GET, HEAD');
  t.regex(res.json.error.message, /POST \/v1\/identities\/ident_abc\/squash/);
});

test('http: paths match as Express matched them — any case, optional trailing slash, decoded parameters, HEAD for GET', async (t) => {
  const tenant = await api.tenant();
  const created = await api.call('POST', '/v1/identities', { tenant, body: { label: 'routing' } });
  const id = created.json.id as string;
  t.deepEqual((await api.call('GET', `/V1/Identities/${id}/`, { tenant })).json, created.json);
  const encoded = await api.call('GET', `/v1/identities/${encodeURIComponent(id)}`, { tenant });
  t.is(encoded.status, 200);
  const head = await fetch(`${api.base}/v1/identities/${id}`, {
    method: 'HEAD',
    headers: { authorization: `Bearer ${tenant.key}`, 'x-org-id': tenant.orgId, 'x-project-id': tenant.projectId },
  });
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), String(Buffer.byteLength(encoded.text)));
  t.is(await head.text(), '');
  // A parameter no identity has still reaches the handler, however long: 404 of the resource, not of the route.
  envelopeOk(t, await api.call('GET', `/v1/identities/${'x'.repeat(500)}`, { tenant }), 404, 'identity_not_found');
  t.is((await api.call('GET', '/v1/nothing')).headers.get('cache-control'), 'no-store, max-age=0', 'every /v1 answer is no-store');
});

test('http: a malformed percent-encoding in the path answers 400 invalid_request', async (t) => {
  const tenant = await api.tenant();
  const res = await api.call('GET', '/v1/identities/%E0%A4%A', { tenant });
  envelopeOk(t, res, 400, 'invalid_request');
  t.is(res.headers.get('cache-control'), 'no-store, max-age=0');
});

test('http: a replayed key answers the original status and body with Idempotent-Replayed', async (t) => {
  const tenant = await api.tenant();
  const first = await api.call('POST', '/v1/identities', { tenant, body: { label: 'once' }, idem: 'same-key' });
  const again = await api.call('POST', '/v1/identities', { tenant, body: { label: 'once' }, idem: 'same-key' });
  t.is(again.status, 201);
  t.deepEqual(again.json, first.json);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  envelopeOk(t, await api.call('POST', '/v1/identities', { tenant, body: { label: 'other' }, idem: 'same-key' }), 422, 'idempotency_key_reused');
  const list = await api.call('GET', '/v1/identities', { tenant });
  t.is(list.json.total, 1);
});

test('http: 50 concurrent identical requests create exactly one identity', async (t) => {
  const tenant = await api.tenant();
  const results = await Promise.all(
    Array.from({ length: 50 }, () => api.call('POST', '/v1/identities', { tenant, body: { label: 'race' }, idem: 'race-key' })),
  );
  const created = results.filter((r) => r.status === 201);
  const inFlight = results.filter((r) => r.status === 409);
  t.true(created.length >= 1);
  t.is(created.length + inFlight.length, 50);
  t.is(new Set(created.map((r) => r.json.id)).size, 1, 'every 201 is the same identity');
  for (const r of inFlight) {
    t.is(r.json.error.code, 'idempotency_in_progress');
    t.is(r.headers.get('retry-after'), '1');
  }
  t.is((await api.call('GET', '/v1/identities', { tenant })).json.total, 1);
});

test('http: token exchange answers no-store and the token works with its subset of scopes', async (t) => {
  const tenant = await api.tenant();
  const res = await api.call('POST', '/v1/auth/tokens', { tenant, body: { scopes: ['identities:read'], ttl_seconds: 120 } });
  t.is(res.status, 200);
  t.is(res.headers.get('cache-control'), 'no-store, max-age=0');
  t.is(res.headers.get('pragma'), 'no-cache');
  const viaToken = { ...tenant, key: res.json.access_token };
  t.deepEqual((await api.call('GET', '/v1/me', { tenant: viaToken })).json.scopes, ['identities:read']);
  envelopeOk(t, await api.call('POST', '/v1/identities', { tenant: viaToken, body: { label: 'x' } }), 403, 'forbidden');
  envelopeOk(t, await api.call('POST', '/v1/auth/tokens', { tenant, body: { scopes: ['webhooks:write'] } }), 403, 'forbidden');
  envelopeOk(t, await api.call('POST', '/v1/auth/tokens', { tenant, body: { scopes: ['identities:read'], ttl_seconds: 59 } }), 400, 'invalid_request');
});

test('http: openapi.json lists every route of the table with its request schema', async (t) => {
  const res = await api.call('GET', '/v1/openapi.json');
  t.is(res.json.openapi, '3.1.0');
  for (const route of api.http.routes) {
    const op = res.json.paths[route.path.replace(/:([a-z_]+)/g, '{$1}')]?.[route.method];
    t.truthy(op, `${route.method} ${route.path}`);
    if (route.body) t.truthy(op.requestBody.content['application/json'].schema);
  }
  const create = res.json.paths['/v1/identities'].post.requestBody.content['application/json'].schema;
  t.deepEqual(create.required, ['label']);
  t.is(create.additionalProperties, false);
});

test('http: openapi.json describes events and every webhook delivery with identity_id in data', async (t) => {
  const doc = (await api.call('GET', '/v1/openapi.json')).json;
  t.deepEqual(doc.components.schemas.EventData.required, ['identity_id']);
  t.is(doc.paths['/v1/identities/{identity_id}/events'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/EventPage');
  t.is(doc.paths['/v1/identities/{identity_id}/events/latest'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/Event');
  t.true(Object.keys(doc.webhooks).includes('identity.extended'));
  const delivery = doc.webhooks['identity.extended'].post.requestBody.content['application/json'].schema.$ref;
  t.is(delivery, '#/components/schemas/WebhookDelivery');
  t.is(doc.components.schemas.WebhookDelivery.properties.data.$ref, '#/components/schemas/EventData');
});

test('http: events in the API carry identity_id in their data, extension included', async (t) => {
  const tenant = await api.tenant();
  const created = await api.call('POST', '/v1/identities', { tenant, body: { label: 'named' } });
  await api.call('POST', `/v1/identities/${created.json.id}/extend`, { tenant, body: { additional_hours: 2 } });
  await api.call('POST', `/v1/identities/${created.json.id}/squash`, { tenant });
  const events = (await api.call('GET', `/v1/identities/${created.json.id}/events`, { tenant })).json.items;
  t.deepEqual(events.map((e: { type: string }) => e.type), ['identity.squashed', 'identity.extended', 'identity.provisioned']);
  for (const event of events) t.is(event.data.identity_id, created.json.id, event.type);
});

test('http: health, readiness and Prometheus metrics by route', async (t) => {
  t.is((await api.call('GET', '/livez')).status, 200);
  t.is((await api.call('GET', '/readyz')).json.status, 'ready');
  await api.call('GET', '/v1/me');
  const metrics = await api.call('GET', '/metrics');
  t.regex(metrics.text, /ephemail_http_requests_total\{method="GET",route="\/v1\/me",status="401"\} \d+/);
  t.regex(metrics.text, /ephemail_http_request_duration_seconds_bucket/);
  // Counted per label set: a second identical answer moves the same series.
  const before = Number(/ephemail_http_requests_total\{method="GET",route="\/v1\/me",status="401"\} (\d+)/.exec(metrics.text)?.[1]);
  await api.call('GET', '/v1/me');
  const after = (await api.call('GET', '/metrics')).text;
  t.regex(after, new RegExp(`ephemail_http_requests_total\\{method="GET",route="/v1/me",status="401"\\} ${before + 1}\\n`));
  const wrong = await api.call('POST', '/livez', { idem: false });
  envelopeOk(t, wrong, 405, 'method_not_allowed');
  t.is(wrong.headers.get('allow'), 'GET, HEAD');
});

test('http: lifecycle conflicts map to their codes', async (t) => {
  const tenant = await api.tenant();
  const id = (await api.call('POST', '/v1/identities', { tenant, body: { label: 'x' } })).json.id;
  t.is((await api.call('POST', `/v1/identities/${id}/squash`, { tenant })).json.status, 'squashed');
  envelopeOk(t, await api.call('POST', `/v1/identities/${id}/squash`, { tenant }), 409, 'identity_already_squashed');
  envelopeOk(t, await api.call('POST', `/v1/identities/${id}/extend`, { tenant, body: { additional_hours: 1 } }), 409, 'identity_already_squashed');
  envelopeOk(t, await api.call('GET', '/v1/identities/ident_missing', { tenant }), 404, 'identity_not_found');
  const bulk = await api.call('POST', '/v1/identities/bulk-squash', { tenant, body: { identity_ids: [id, 'ident_missing'] } });
  t.deepEqual(bulk.json, { squashed: [], failed: [{ id, code: 'identity_already_squashed' }, { id: 'ident_missing', code: 'identity_not_found' }] });
});

test('http: a non-JSON body answers 415; unknown query parameters 400; static paths answer 405', async (t) => {
  const tenant = await api.tenant();
  envelopeOk(t, await api.call('POST', '/v1/identities', { tenant, rawBody: 'label=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
  envelopeOk(t, await api.call('GET', '/v1/me?colour=red', { tenant }), 400, 'invalid_request');
  const res = await api.call('GET', '/v1/identities/bulk', { tenant });
  envelopeOk(t, res, 405, 'method_not_allowed');
  t.is(res.headers.get('allow'), 'POST');
});

test('http: a squash without a body and one with {} are the same idempotent request', async (t) => {
  const tenant = await api.tenant();
  const id = (await api.call('POST', '/v1/identities', { tenant, body: { label: 'x' } })).json.id;
  t.is((await api.call('POST', `/v1/identities/${id}/squash`, { tenant, idem: 'sq' })).status, 200);
  const again = await api.call('POST', `/v1/identities/${id}/squash`, { tenant, body: {}, idem: 'sq' });
  t.is(again.status, 200);
  t.is(again.headers.get('idempotent-replayed'), 'true');
});
