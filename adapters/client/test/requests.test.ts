import test from 'ava';
import { EphemailError } from '../src/index.js';
import { envelope, identity, json, KEY, startServer } from './support.js';

test('client: every request carries the bearer key and the tenant headers; a POST gets a UUID Idempotency-Key', async (t) => {
  const server = await startServer((_seen, _n, res) => json(res, 201, identity()));
  t.teardown(server.close);
  const created = await server.client().createIdentity({ ttl_hours: 2 });
  t.is(created.id, 'ident_one');
  const [request] = server.seen;
  t.is(request!.method, 'POST');
  t.is(request!.url.pathname, '/v1/identities');
  t.is(request!.headers.authorization, `Bearer ${KEY}`);
  t.is(request!.headers['x-org-id'], 'org_t');
  t.is(request!.headers['x-project-id'], 'proj_t');
  t.regex(String(request!.headers['idempotency-key']), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.deepEqual(JSON.parse(request!.body), { ttl_hours: 2, label: 'ephemail client' });
});

test('client: each call has its own Idempotency-Key, and one given is sent as it is', async (t) => {
  const server = await startServer((_seen, _n, res) => json(res, 201, identity()));
  t.teardown(server.close);
  const client = server.client();
  await client.createIdentity();
  await client.createIdentity({ label: 'mine' }, { idempotencyKey: 'signup-42' });
  await client.createIdentity();
  const keys = server.seen.map((s) => s.headers['idempotency-key']);
  t.is(keys[1], 'signup-42');
  t.is(new Set(keys).size, 3);
  t.is(JSON.parse(server.seen[1]!.body).label, 'mine');
});

test('client: a 503 is retried after its Retry-After, with the same Idempotency-Key and body', async (t) => {
  const server = await startServer((_seen, n, res) =>
    n === 0 ? json(res, 503, envelope('dependency_unavailable', 'req_a', {}, true), { 'retry-after': '1' }) : json(res, 201, identity('ident_retried')),
  );
  t.teardown(server.close);
  const created = await server.client().createIdentity({ label: 'again' });
  t.is(created.id, 'ident_retried');
  t.is(server.seen.length, 2);
  const [first, second] = server.seen;
  t.is(first!.headers['idempotency-key'], second!.headers['idempotency-key']);
  t.is(first!.body, second!.body);
  t.true(second!.at - first!.at >= 950, `waited ${second!.at - first!.at} ms`);
});

test('client: a dropped connection is retried with the same Idempotency-Key', async (t) => {
  const server = await startServer((_seen, n, res) => (n === 0 ? void res.socket?.destroy() : json(res, 201, identity())));
  t.teardown(server.close);
  await server.client().createIdentity();
  t.is(server.seen.length, 2);
  t.is(server.seen[0]!.headers['idempotency-key'], server.seen[1]!.headers['idempotency-key']);
});

test('client: 429 is retried `retries` times, then the envelope is thrown as EphemailError', async (t) => {
  const server = await startServer((seen, n, res) => json(res, 429, envelope('rate_limited', `req_${n}`), { 'x-request-id': `req_${n}` }));
  t.teardown(server.close);
  const error = await t.throwsAsync(server.client({ retries: 2 }).getIdentity('ident_x'), { instanceOf: EphemailError });
  t.is(server.seen.length, 3);
  t.is(error.status, 429);
  t.is(error.code, 'rate_limited');
  t.is(error.requestId, 'req_2');
  t.is(error.message, 'message of rate_limited');
});

test('client: an error envelope becomes EphemailError with its code, status, requestId and details', async (t) => {
  const server = await startServer((_seen, _n, res) =>
    json(res, 400, envelope('invalid_request', 'req_Zz', { issues: [{ path: 'body.ttl_hours', message: 'too big' }] })),
  );
  t.teardown(server.close);
  const error = await t.throwsAsync(server.client().extendIdentity('ident_x', { additional_hours: 9999 }), { instanceOf: EphemailError });
  t.is(server.seen.length, 1, 'a 400 is not retried');
  t.like(error, { status: 400, code: 'invalid_request', requestId: 'req_Zz', name: 'EphemailError' });
  t.deepEqual((error.details as { issues: unknown[] }).issues, [{ path: 'body.ttl_hours', message: 'too big' }]);
  t.false(error.message.includes(KEY));
});

test('client: an answer without an envelope is http_<status>, with the X-Request-Id header as requestId', async (t) => {
  const server = await startServer((_seen, _n, res) => {
    res.writeHead(502, { 'content-type': 'text/plain', 'x-request-id': 'req_proxy' });
    res.end('Bad Gateway');
  });
  t.teardown(server.close);
  const error = await t.throwsAsync(server.client().getIdentity('ident_x'), { instanceOf: EphemailError });
  t.like(error, { status: 502, code: 'http_502', requestId: 'req_proxy' });
});

test('client: aborting a call stops it while it waits to retry', async (t) => {
  const controller = new AbortController();
  let answered = 0;
  const server = await startServer((_seen, _n, res) => {
    json(res, 503, envelope('dependency_unavailable', 'req_b'), { 'retry-after': '30' });
    answered = Date.now();
    // Aborted once the client is waiting out the 30 s the answer asked for.
    setTimeout(() => controller.abort(), 100);
  });
  t.teardown(server.close);
  const error = await t.throwsAsync(server.client().createIdentity({}, { signal: controller.signal }), { any: true });
  t.is((error as Error).name, 'AbortError');
  // Well before the 30 s the answer asked to wait.
  t.true(Date.now() - answered < 15_000);
  t.is(server.seen.length, 1);
});

test('client: lists answer the page as data with total, limit and offset, sending the query as given', async (t) => {
  const server = await startServer((_seen, _n, res) => json(res, 200, { items: [identity('ident_a'), identity('ident_b')], total: 7, limit: 2, offset: 4 }));
  t.teardown(server.close);
  const page = await server.client().listIdentities({ status: 'active', limit: 2, offset: 4 });
  t.deepEqual(page.data.map((i) => i.id), ['ident_a', 'ident_b']);
  t.like(page, { total: 7, limit: 2, offset: 4 });
  t.is(server.seen[0]!.url.search, '?status=active&limit=2&offset=4');
});

test('client: squash sends an empty JSON body; messages pass reveal through', async (t) => {
  const server = await startServer((seen, _n, res) =>
    seen.url.pathname.endsWith('/squash') ? json(res, 200, identity()) : json(res, 200, { items: [], total: 0, limit: 5, offset: 0 }),
  );
  t.teardown(server.close);
  const client = server.client();
  await client.squashIdentity('ident_one');
  await client.listMessages('ident_one', { limit: 5, reveal: true });
  t.is(server.seen[0]!.body, '{}');
  t.is(server.seen[0]!.url.pathname, '/v1/identities/ident_one/squash');
  t.is(server.seen[1]!.url.search, '?limit=5&reveal=true');
});

test('client: latestExtraction is undefined on extraction_not_found, and throws on identity_not_found', async (t) => {
  const server = await startServer((seen, _n, res) =>
    seen.url.pathname.includes('ident_none') ? json(res, 404, envelope('identity_not_found', 'req_n')) : json(res, 404, envelope('extraction_not_found', 'req_e')),
  );
  t.teardown(server.close);
  const client = server.client();
  t.is(await client.latestExtraction('ident_one'), undefined);
  t.is(server.seen[0]!.url.search, '?wait=0&reveal=false');
  const error = await t.throwsAsync(client.latestExtraction('ident_none'), { instanceOf: EphemailError });
  t.is(error.code, 'identity_not_found');
});
