import test from 'ava';
import { hkdfSync } from 'node:crypto';
import { fingerprint } from '../src/index.js';
import { sealKeyOf } from '../src/use-cases/idempotency.js';
import { setup } from './support.js';

const scope = { orgId: 'org_1', projectId: 'proj_1', route: 'POST /v1/identities', credential: 'api_key:key_1' };

test('idempotency: of 50 concurrent claims of one key exactly one proceeds', async (t) => {
  const { app } = await setup();
  const claims = await Promise.all(Array.from({ length: 50 }, () => app.idempotency.claim(scope, 'k1', fingerprint({ a: 1 }))));
  t.is(claims.filter((c) => c.kind === 'proceed').length, 1);
  t.is(claims.filter((c) => c.kind === 'in_progress').length, 49);
});

test('idempotency: a completed key replays the stored response; another body is reuse', async (t) => {
  const { app } = await setup();
  const claim = await app.idempotency.claim(scope, 'k2', fingerprint({ a: 1, b: 2 }));
  if (claim.kind !== 'proceed') return t.fail(claim.kind);
  t.true(await app.idempotency.complete(claim, { status: 201, body: { id: 'x' } }));
  t.deepEqual(await app.idempotency.claim(scope, 'k2', fingerprint({ b: 2, a: 1 })), {
    kind: 'replay',
    response: { status: 201, body: { id: 'x' } },
  });
  t.deepEqual(await app.idempotency.claim(scope, 'k2', fingerprint({ a: 2 })), { kind: 'reused' });
});

test('idempotency: keys are scoped by tenant and route', async (t) => {
  const { app } = await setup();
  const first = await app.idempotency.claim(scope, 'k3', 'h');
  t.is(first.kind, 'proceed');
  t.is((await app.idempotency.claim({ ...scope, projectId: 'proj_2' }, 'k3', 'h')).kind, 'proceed');
  t.is((await app.idempotency.claim({ ...scope, route: 'POST /v1/identities/bulk' }, 'k3', 'h')).kind, 'proceed');
});

test('idempotency: a key answers only the credential that claimed it, finished or in flight', async (t) => {
  const { app } = await setup();
  const other = { ...scope, credential: 'api_key:key_2' };
  const claim = await app.idempotency.claim(scope, 'k8', 'h');
  if (claim.kind !== 'proceed') return t.fail(claim.kind);
  t.deepEqual(await app.idempotency.claim(other, 'k8', 'h'), { kind: 'other_credential' });
  await app.idempotency.complete(claim, { status: 200, body: { access_token: 'eat_FIRST' } });
  // Same body or another: the other credential learns nothing of the first answer.
  t.deepEqual(await app.idempotency.claim(other, 'k8', 'h'), { kind: 'other_credential' });
  t.deepEqual(await app.idempotency.claim(other, 'k8', 'other'), { kind: 'other_credential' });
  t.deepEqual(await app.idempotency.claim({ ...scope, credential: 'access_token:tok_1' }, 'k8', 'h'), { kind: 'other_credential' });
  t.is((await app.idempotency.claim(scope, 'k8', 'h')).kind, 'replay');
});

test('idempotency: a record made before keys were bound to a credential replays to nobody', async (t) => {
  const { app } = await setup();
  const claim = await app.idempotency.claim(scope, 'k9', 'h');
  if (claim.kind !== 'proceed') return t.fail(claim.kind);
  await app.idempotency.complete(claim, { status: 200, body: {} });
  const [record] = await app.deps.store.find('idempotency', {});
  const { credential: _dropped, version, ...legacy } = record as Record<string, unknown> & { version: number };
  t.true(await app.deps.store.replace('idempotency', legacy as never, version));
  t.deepEqual(await app.idempotency.claim(scope, 'k9', 'h'), { kind: 'other_credential' });
});

test('idempotency: a released claim can be retried; an abandoned one is taken over after its lease', async (t) => {
  const { app, clock } = await setup();
  const claim = await app.idempotency.claim(scope, 'k4', 'h');
  if (claim.kind !== 'proceed') return t.fail();
  await app.idempotency.release(claim);
  t.is((await app.idempotency.claim(scope, 'k4', 'h')).kind, 'proceed');
  t.is((await app.idempotency.claim(scope, 'k4', 'h')).kind, 'in_progress');
  clock.advance(app.deps.config.idempotencyLeaseMs);
  t.is((await app.idempotency.claim(scope, 'k4', 'h')).kind, 'proceed');
});

test('idempotency: a key is forgotten after 24 hours', async (t) => {
  const { app, clock } = await setup();
  const claim = await app.idempotency.claim(scope, 'k5', 'h');
  if (claim.kind !== 'proceed') return t.fail();
  await app.idempotency.complete(claim, { status: 200, body: {} });
  clock.advance(24 * 3_600_000 - 1);
  t.is((await app.idempotency.claim(scope, 'k5', 'other')).kind, 'reused');
  clock.advance(1);
  t.is((await app.idempotency.claim(scope, 'k5', 'other')).kind, 'proceed');
});

test('idempotency: a stale completion (claim taken over) is refused', async (t) => {
  const { app, clock } = await setup();
  const first = await app.idempotency.claim(scope, 'k6', 'h');
  clock.advance(app.deps.config.idempotencyLeaseMs);
  const second = await app.idempotency.claim(scope, 'k6', 'h');
  if (first.kind !== 'proceed' || second.kind !== 'proceed') return t.fail();
  t.false(await app.idempotency.complete(first, { status: 200, body: 'late' }));
  t.true(await app.idempotency.complete(second, { status: 200, body: 'current' }));
});

test('idempotency: stored answers are sealed: the record holds no plaintext, only the key holder replays it', async (t) => {
  const { app } = await setup();
  const claim = await app.idempotency.claim(scope, 'client-key-7', 'h');
  if (claim.kind !== 'proceed') return t.fail();
  await app.idempotency.complete(claim, { status: 200, body: { access_token: 'eat_SECRETVALUE' } });
  const records = await app.deps.store.find('idempotency', {});
  const raw = JSON.stringify(records);
  t.false(raw.includes('SECRETVALUE'));
  t.false(raw.includes('client-key-7'));
  const replay = await app.idempotency.claim(scope, 'client-key-7', 'h');
  t.deepEqual(replay, { kind: 'replay', response: { status: 200, body: { access_token: 'eat_SECRETVALUE' } } });
});

test('idempotency: the seal key is HKDF-SHA256 of the key salted with the scope, byte for byte', (t) => {
  for (const [scopeKey, key] of [['org_1\nproj_1\nPOST /v1/identities', 'k'], ['o\np\nPOST /v1/auth/tokens', 'é-ünïcode-🔑'], ['', 'x'.repeat(255)]] as const) {
    const expected = Buffer.from(hkdfSync('sha256', key, scopeKey, 'ephemail idempotent response', 32));
    t.true(sealKeyOf(scopeKey, key).equals(expected), `${JSON.stringify(key)} under ${JSON.stringify(scopeKey)}`);
  }
});
