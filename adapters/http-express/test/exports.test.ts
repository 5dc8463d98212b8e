import { randomUUID } from 'node:crypto';
import test from 'ava';
import { startApi } from './support.js';

const SCOPES = ['identities:read', 'identities:write', 'exports:read', 'exports:write'];

const envelopeKeys = ['error', 'requestId', 'timestamp', 'path', 'retryable'];

test('exports over HTTP: create needs exports:write and an Idempotency-Key, read needs exports:read; a replay is the same export', async (t) => {
  const api = await startApi();
  t.teardown(api.close);
  const writer = await api.tenant(['exports:write']);
  const reader = await api.tenant(['exports:read']);
  t.like((await api.call('POST', '/v1/exports', { tenant: reader, body: { type: 'events', format: 'csv' } })).json, { error: { code: 'forbidden', details: { missing_scopes: ['exports:write'] } } });
  t.like((await api.call('POST', '/v1/exports', { tenant: writer, body: { type: 'events', format: 'csv' }, idem: false })).json, { error: { code: 'missing_idempotency_key' } });
  const key = randomUUID();
  const first = await api.call('POST', '/v1/exports', { tenant: writer, body: { type: 'events', format: 'csv' }, idem: key });
  t.is(first.status, 201);
  t.deepEqual(Object.keys(first.json), ['id', 'type', 'format', 'status', 'date_range', 'created_at']);
  const replay = await api.call('POST', '/v1/exports', { tenant: writer, body: { type: 'events', format: 'csv' }, idem: key });
  t.is(replay.json.id, first.json.id);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.like((await api.call('GET', `/v1/exports/${first.json.id}`, { tenant: writer })).json, { error: { code: 'forbidden' } });
});

test('exports over HTTP: the spec codes for a bad type, format or range, and 429 beyond the concurrent limit', async (t) => {
  const api = await startApi();
  t.teardown(api.close);
  const tenant = await api.tenant(SCOPES);
  const post = (body: unknown) => api.call('POST', '/v1/exports', { tenant, body });
  const type = await post({ type: 'messages', format: 'csv' });
  t.is(type.status, 400);
  t.deepEqual(Object.keys(type.json), envelopeKeys);
  t.like(type.json.error, { code: 'invalid_export_type', details: { allowed: ['identities', 'events', 'extractions'] } });
  t.like((await post({ type: 'events', format: 'xml' })).json.error, { code: 'invalid_format' });
  t.like((await post({ type: 'events', format: 'csv', date_range: { start: '2026-01-01', end: '2026-06-01' } })).json.error, { code: 'date_range_too_large', details: { max_days: 90 } });
  const bad = await post({ type: 'events', format: 'csv', date_range: { start: '2026-01-10', end: '2026-01-01' } });
  t.like(bad.json.error, { code: 'invalid_request', details: { issues: [{ path: 'body.date_range.end' }] } });
  t.like((await post({ type: 'events' })).json.error, { code: 'invalid_request' });
  t.like((await post({ type: 'events', format: 'csv', extra: 1 })).json.error, { code: 'invalid_request' });
  const made = await Promise.all([1, 2, 3, 4].map(() => post({ type: 'events', format: 'json' })));
  t.deepEqual(made.map((m) => m.status).sort(), [201, 201, 201, 429]);
  const refused = made.find((m) => m.status === 429)!;
  t.like(refused.json, { error: { code: 'export_quota_exceeded', details: { limit: 3 } }, retryable: true });
  t.is(refused.headers.get('retry-after'), '5');
});

test('exports over HTTP: the signed link downloads without an API key; tampered answers 403, expired 410', async (t) => {
  const api = await startApi();
  t.teardown(api.close);
  const tenant = await api.tenant(SCOPES);
  const identity = (await api.call('POST', '/v1/identities', { tenant, body: { label: 'exported, "quoted"' } })).json;
  // JSON: this API has no CSV encoder (the host's is csv-stringify's; test/e2e downloads CSV).
  const created = (await api.call('POST', '/v1/exports', { tenant, body: { type: 'identities', format: 'json' } })).json;
  t.like(await api.service.exports.jobsTick('w1'), { completed: 1 });
  const ready = (await api.call('GET', `/v1/exports/${created.id}`, { tenant })).json;
  t.like(ready, { status: 'ready', row_count: 1, download_available: true });
  const download = await fetch(`${api.base}${ready.download_url}`);
  t.is(download.status, 200);
  t.is(download.headers.get('content-type'), 'application/json; charset=utf-8');
  t.is(download.headers.get('content-disposition'), `attachment; filename="${created.id}.json"`);
  t.regex(download.headers.get('cache-control') ?? '', /no-store/);
  t.is(download.headers.get('content-length'), String(ready.file_size_bytes));
  t.deepEqual(await download.json(), [identity]);
  const head = await fetch(`${api.base}${ready.download_url}`, { method: 'HEAD' });
  t.is(head.headers.get('content-length'), String(ready.file_size_bytes));
  const url: string = ready.download_url;
  const tampered = await fetch(`${api.base}${url.slice(0, -1)}${url.endsWith('0') ? '1' : '0'}`);
  t.is(tampered.status, 403);
  const body = (await tampered.json()) as { error: { code: string } };
  t.deepEqual(Object.keys(body), envelopeKeys);
  t.is(body.error.code, 'invalid_download_signature');
  t.is((await fetch(`${api.base}/v1/exports/${created.id}/download`)).status, 403);
  api.clock.advance(3_600_000);
  const expired = await fetch(`${api.base}${ready.download_url}`);
  t.is(expired.status, 410);
  t.like(await expired.json(), { error: { code: 'download_expired' } });
  t.like((await api.call('GET', `/v1/exports/${created.id}`, { tenant })).json, { status: 'ready', download_available: false });
});

test('exports over HTTP: the routes, the download and the Export schema are in the OpenAPI document', async (t) => {
  const api = await startApi();
  t.teardown(api.close);
  const doc = (await api.call('GET', '/v1/openapi.json')).json;
  t.truthy(doc.paths['/v1/exports'].post.requestBody);
  t.deepEqual(doc.paths['/v1/exports'].post.requestBody.content['application/json'].schema.properties.type.enum, ['identities', 'events', 'extractions']);
  t.is(doc.paths['/v1/exports'].post.responses['201'].content['application/json'].schema.$ref, '#/components/schemas/Export');
  t.truthy(doc.paths['/v1/exports/{export_id}'].get);
  t.deepEqual(doc.paths['/v1/exports/{export_id}/download'].get.security, []);
  t.truthy(doc.components.schemas.Export.properties.download_url);
});
