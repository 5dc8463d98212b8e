import type { ServerResponse } from 'node:http';
import test from 'ava';
import { EphemailError, EphemailIdentityGoneError, EphemailTimeoutError } from '../src/index.js';
import { envelope, extraction, json, startServer, type Seen } from './support.js';

/** Answers a long-poll with nothing after holding it `wait` seconds (capped), as the API does. */
const heldEmpty = (seen: Seen, res: ServerResponse, capMs = 60_000) => {
  const waitMs = Math.min(Number(seen.url.searchParams.get('wait') ?? 0) * 1000, capMs);
  const timer = setTimeout(() => json(res, 404, envelope('extraction_not_found', 'req_e')), waitMs);
  res.on('close', () => clearTimeout(timer));
};

test('wait: waitForCode asks for type=otp and answers the raw code', async (t) => {
  const server = await startServer((seen, _n, res) =>
    seen.url.searchParams.get('type') === 'otp' ? json(res, 200, extraction('ext_code', 'otp', '123456')) : json(res, 500, envelope('unexpected', 'req_x')),
  );
  t.teardown(server.close);
  const found = await server.client().waitForCode('ident_one', { timeoutMs: 10_000 });
  t.is(found.code, '123456');
  t.is(found.redacted, '1•••6');
  t.is(found.extraction.id, 'ext_code');
  t.is(server.seen.length, 1);
  const first = server.seen[0]!.url.searchParams;
  t.is(first.get('reveal'), 'true', 'reveal is the default');
  t.is(first.get('wait'), '10');
  t.is(server.seen[0]!.url.pathname, '/v1/identities/ident_one/extractions/latest');
});

test('wait: waitForLink asks for type=magic_link and answers a runner-up link the API picked', async (t) => {
  const link = 'https://app.example.com/s?t=1';
  const picked = { ...extraction('ext_both', 'magic_link', link), runner_up: true };
  const server = await startServer((seen, _n, res) =>
    seen.url.searchParams.get('type') === 'magic_link' ? json(res, 200, picked) : json(res, 500, envelope('unexpected', 'req_x')),
  );
  t.teardown(server.close);
  const found = await server.client().waitForLink('ident_one', { timeoutMs: 5_000 });
  t.is(found.link, link);
  t.is(found.extraction.runner_up, true);
});

test('wait: an answer of the other type (an API ignoring type) is stepped past, waiting after it', async (t) => {
  const server = await startServer((seen, _n, res) => {
    const after = seen.url.searchParams.get('after');
    if (after === null) return json(res, 200, extraction('ext_link', 'magic_link', 'https://app.example.com/s?t=1'));
    if (after === 'ext_link') return json(res, 200, extraction('ext_code', 'otp', '123456'));
    json(res, 500, envelope('unexpected', 'req_x'));
  });
  t.teardown(server.close);
  const found = await server.client().waitForCode('ident_one', { timeoutMs: 10_000 });
  t.is(found.code, '123456');
  t.is(server.seen[1]!.url.searchParams.get('after'), 'ext_link');
});

for (const [code, state] of [['identity_already_squashed', 'squashed'], ['identity_expired', 'expired']] as const) {
  test(`wait: 409 ${code} ends the wait at once with EphemailIdentityGoneError (${state})`, async (t) => {
    const server = await startServer((_seen, _n, res) => json(res, 409, envelope(code, 'req_g', { identity_id: 'ident_one' })));
    t.teardown(server.close);
    const error = await t.throwsAsync(server.client().waitForLink('ident_one', { timeoutMs: 30_000 }), { instanceOf: EphemailIdentityGoneError });
    t.like(error, { status: 409, code, state, identityId: 'ident_one', requestId: 'req_g', name: 'EphemailIdentityGoneError' });
    t.true(error instanceof EphemailError, 'it is an API error like the others');
    t.is(server.seen.length, 1, 'not retried, not waited out');
  });
}

test('wait: waitForLink with reveal false answers the masked link and no raw value', async (t) => {
  const server = await startServer((seen, _n, res) =>
    seen.url.searchParams.get('after') === 'ext_seen' ? json(res, 200, extraction('ext_new', 'magic_link')) : json(res, 500, envelope('unexpected', 'req_x')),
  );
  t.teardown(server.close);
  const found = await server.client().waitForLink('ident_one', { after: 'ext_seen', reveal: false, timeoutMs: 5_000 });
  t.is(found.link, undefined);
  t.is(found.redacted, 'https://app.example.com/•••');
  t.is(server.seen[0]!.url.searchParams.get('reveal'), 'false');
});

test('wait: an empty long-poll is asked again, and a 503 or a dropped connection is reconnected', async (t) => {
  const server = await startServer((seen, n, res) => {
    if (n === 0) return heldEmpty(seen, res, 100);
    if (n === 1) return json(res, 503, envelope('dependency_unavailable', 'req_u', {}, true), { 'retry-after': '0' });
    if (n === 2) return void res.socket?.destroy();
    json(res, 200, extraction('ext_code', 'otp', '654321'));
  });
  t.teardown(server.close);
  const found = await server.client({ retries: 0 }).waitForCode('ident_one', { timeoutMs: 15_000 });
  t.is(found.code, '654321');
  t.is(server.seen.length, 4);
});

test('wait: nothing arriving ends in EphemailTimeoutError after timeoutMs, not before', async (t) => {
  const server = await startServer((seen, _n, res) => heldEmpty(seen, res));
  t.teardown(server.close);
  const started = Date.now();
  const error = await t.throwsAsync(server.client().waitForCode('ident_one', { timeoutMs: 1_500 }), { instanceOf: EphemailTimeoutError });
  const took = Date.now() - started;
  // Not before the deadline; the upper bound only tells a wait that ends from one that hangs.
  t.true(took >= 1_500 && took < 20_000, `took ${took} ms`);
  t.is(error.identityId, 'ident_one');
  t.true(error.waitedMs >= 1_500);
  t.is(server.seen[0]!.url.searchParams.get('wait'), '2');
});

test('wait: the deadline also cuts a long-poll the server would hold longer', async (t) => {
  // A server that ignores `wait` and never answers: the client still gives up at its deadline.
  const server = await startServer(() => undefined);
  t.teardown(server.close);
  const started = Date.now();
  await t.throwsAsync(server.client().waitForLink('ident_one', { timeoutMs: 800 }), { instanceOf: EphemailTimeoutError });
  t.true(Date.now() - started < 20_000);
});

test('wait: an abort ends the wait at once with the AbortError', async (t) => {
  const server = await startServer((seen, _n, res) => heldEmpty(seen, res));
  t.teardown(server.close);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 300);
  const started = Date.now();
  const error = await t.throwsAsync(server.client().waitForCode('ident_one', { timeoutMs: 30_000, signal: controller.signal }), { any: true });
  t.is((error as Error).name, 'AbortError');
  // Well before the 30 s deadline: the abort ended it.
  t.true(Date.now() - started < 15_000);
});

test('wait: a refusal (reveal without secrets:read) is thrown at once, not waited out', async (t) => {
  const server = await startServer((_seen, _n, res) => json(res, 403, envelope('forbidden', 'req_f', { missing_scopes: ['secrets:read'] })));
  t.teardown(server.close);
  const error = await t.throwsAsync(server.client().waitForCode('ident_one', { timeoutMs: 30_000 }), { instanceOf: EphemailError });
  t.like(error, { status: 403, code: 'forbidden', requestId: 'req_f' });
  t.is(server.seen.length, 1);
});
