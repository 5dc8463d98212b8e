import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { hashSecret } from '../src/index.js';
import { newPrincipal, right, setup, tagOf } from './support.js';

const auth = (authorization: string | undefined, orgId?: string, projectId?: string) => ({ authorization, orgId, projectId });

test('auth: a key is aid_-prefixed, stored only as a hash, and authenticates its org and project', async (t) => {
  const { app } = await setup();
  const created = right(await app.auth.createApiKey({ orgId: 'org_a', projectIds: ['proj_a'], scopes: ['identities:read'] }));
  t.regex(created.key, /^aid_[A-Za-z0-9]{16}_[A-Za-z0-9]{40}$/);
  const stored = await app.deps.store.get('api_keys', created.record.id);
  t.false(JSON.stringify(stored).includes(created.key.split('_')[2]!));
  t.is(stored?.secret_hash, hashSecret(created.key.split('_')[2]!));
  const principal = right(await app.auth.authenticate(auth(`Bearer ${created.key}`, 'org_a', 'proj_a')));
  t.deepEqual([principal.orgId, principal.projectId, principal.scopes], ['org_a', 'proj_a', ['identities:read']]);
});

test('auth: missing, malformed, wrong-secret and revoked credentials answer unauthorized', async (t) => {
  const { app } = await setup();
  const { key, record } = right(await app.auth.createApiKey({ orgId: 'org_b', projectIds: ['proj_b'], scopes: [] }));
  const wrong = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
  for (const value of [undefined, 'Bearer', `Basic ${key}`, 'Bearer aid_short', `Bearer ${wrong}`]) {
    t.is(tagOf(await app.auth.authenticate(auth(value, 'org_b', 'proj_b'))), 'Unauthorized', String(value));
  }
  right(await app.auth.revokeApiKey(record.id));
  t.is(tagOf(await app.auth.authenticate(auth(`Bearer ${key}`, 'org_b', 'proj_b'))), 'Unauthorized');
});

test('auth: missing tenant headers answer invalid_request, differing ones scope_mismatch', async (t) => {
  const { app } = await setup();
  const { key } = right(await app.auth.createApiKey({ orgId: 'org_c', projectIds: ['proj_c', 'proj_d'], scopes: [] }));
  t.is(tagOf(await app.auth.authenticate(auth(`Bearer ${key}`, undefined, 'proj_c'))), 'InvalidRequest');
  t.is(tagOf(await app.auth.authenticate(auth(`Bearer ${key}`, 'org_x', 'proj_c'))), 'ScopeMismatch');
  t.is(tagOf(await app.auth.authenticate(auth(`Bearer ${key}`, 'org_c', 'proj_x'))), 'ScopeMismatch');
  t.is(tagOf(await app.auth.authenticate(auth(`Bearer ${key}`, 'org_c', 'proj_d'))), 'Right');
});

test('auth: an access token carries a subset of scopes, is bound to one project and expires', async (t) => {
  const { app, clock } = await setup();
  const principal = await newPrincipal(app, { scopes: ['identities:read', 'identities:write'] });
  t.is(tagOf(await app.auth.exchangeToken(principal, { scopes: ['webhooks:read'], ttl_seconds: 60 })), 'Forbidden');
  const issued = right(await app.auth.exchangeToken(principal, { scopes: ['identities:read'], ttl_seconds: 60 }));
  t.regex(issued.access_token, /^eat_/);
  const viaToken = right(
    await app.auth.authenticate(auth(`Bearer ${issued.access_token}`, principal.orgId, principal.projectId)),
  );
  t.deepEqual(viaToken.scopes, ['identities:read']);
  t.is(viaToken.credential.kind, 'access_token');
  clock.advance(60_000);
  t.is(tagOf(await app.auth.authenticate(auth(`Bearer ${issued.access_token}`, principal.orgId, principal.projectId))), 'Unauthorized');
});

test('auth: revoking a key ends its access tokens too', async (t) => {
  const { app } = await setup();
  const principal = await newPrincipal(app);
  const issued = right(await app.auth.exchangeToken(principal, { scopes: ['identities:read'], ttl_seconds: 600 }));
  right(await app.auth.revokeApiKey(principal.credential.keyId));
  const outcome = await app.auth.authenticate(auth(`Bearer ${issued.access_token}`, principal.orgId, principal.projectId));
  t.true(E.isLeft(outcome));
});

test('auth: unknown scopes are refused when creating a key', async (t) => {
  const { app } = await setup();
  t.is(tagOf(await app.auth.createApiKey({ orgId: 'o', projectIds: ['p'], scopes: ['root'] })), 'InvalidRequest');
});

test('auth: a token minted from a token never outlives it', async (t) => {
  const { app } = await setup();
  const principal = await newPrincipal(app);
  const short = right(await app.auth.exchangeToken(principal, { scopes: ['identities:read'], ttl_seconds: 60 }));
  const viaShort = right(await app.auth.authenticate(auth(`Bearer ${short.access_token}`, principal.orgId, principal.projectId)));
  const derived = right(await app.auth.exchangeToken(viaShort, { scopes: ['identities:read'], ttl_seconds: 86_400 }));
  t.is(derived.expires_at, short.expires_at);
});

test('auth: a refused key creation leaves no organization behind; listings hold no internal fields', async (t) => {
  const { app } = await setup();
  right(await app.auth.createApiKey({ orgId: 'org_owner', projectIds: ['proj_taken'], scopes: [] }));
  t.is(tagOf(await app.auth.createApiKey({ orgId: 'org_new', projectIds: ['proj_taken'], scopes: [] })), 'InvalidRequest');
  t.is(await app.deps.store.get('organizations', 'org_new'), undefined);
  const [summary] = await app.auth.listApiKeys('org_owner');
  t.deepEqual(Object.keys(summary!).sort(), ['created_at', 'id', 'name', 'org_id', 'project_ids', 'revoked_at', 'scopes']);
});
