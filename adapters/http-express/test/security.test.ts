import { randomUUID } from 'node:crypto';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import type { Tenant } from './support.js';
import { startApi } from './support.js';

const api = await startApi();
test.after.always(() => api.close());

const ALL = ['identities:read', 'identities:write', 'secrets:read', 'webhooks:read', 'webhooks:write'];

/** A second key of the same organization and project, with its own scopes. */
const sibling = async (of: Tenant, scopes: string[]): Promise<Tenant> => {
  const created = await api.service.auth.createApiKey({ orgId: of.orgId, projectIds: [of.projectId], scopes, plan: 'growth' });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  return { ...of, key: created.right.key };
};

test('idempotency: a second credential replaying another credential\'s token exchange never receives its token', async (t) => {
  const a = await api.tenant(ALL);
  const a2 = await sibling(a, ['identities:read', 'identities:write']);
  const body = { scopes: ['secrets:read', 'identities:read'], ttl_seconds: 86_400 };
  const idem = `deploy-token-${randomUUID()}`;
  const first = await api.call('POST', '/v1/auth/tokens', { tenant: a, body, idem });
  t.is(first.status, 200);
  const token = first.json.access_token as string;
  t.is((await api.call('POST', '/v1/auth/tokens', { tenant: a2, body })).status, 403);
  const replay = await api.call('POST', '/v1/auth/tokens', { tenant: a2, body, idem });
  t.is(replay.status, 422);
  t.is(replay.json.error.code, 'idempotency_key_reused');
  t.is(replay.headers.get('idempotent-replayed'), null);
  t.false(replay.text.includes(token));
  // The credential that made it still gets its replay.
  const own = await api.call('POST', '/v1/auth/tokens', { tenant: a, body, idem });
  t.is(own.status, 200);
  t.is(own.json.access_token, token);
  t.is(own.headers.get('idempotent-replayed'), 'true');
});

test('idempotency: an access token of the same key does not replay the key\'s webhook secret', async (t) => {
  const a = await api.tenant(ALL);
  const minted = await api.call('POST', '/v1/auth/tokens', { tenant: a, body: { scopes: ['webhooks:write'], ttl_seconds: 600 } });
  t.is(minted.status, 200);
  const viaToken: Tenant = { ...a, key: minted.json.access_token };
  const body = { url: 'https://hooks.example.com/in', events: ['email.received'] };
  const idem = randomUUID();
  const created = await api.call('POST', '/v1/webhooks', { tenant: a, body, idem });
  t.is(created.status, 201);
  const secret = created.json.secret as string;
  t.truthy(secret);
  const replay = await api.call('POST', '/v1/webhooks', { tenant: viaToken, body, idem });
  t.is(replay.status, 422);
  t.false(replay.text.includes(secret));
  const rotateIdem = randomUUID();
  const rotated = await api.call('POST', `/v1/webhooks/${created.json.id}/rotate-secret`, { tenant: a, idem: rotateIdem });
  t.is(rotated.status, 200);
  const again = await api.call('POST', `/v1/webhooks/${created.json.id}/rotate-secret`, { tenant: viaToken, idem: rotateIdem });
  t.is(again.status, 422);
  t.false(again.text.includes(rotated.json.secret));
});

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i += 1) value = { v: value };
  return value;
};

test('metadata nested thousands of levels deep answers 400 naming body.metadata, not 503', async (t) => {
  const tenant = await api.tenant();
  // Written by hand: JSON.stringify itself recurses.
  const deep = `{"label":"deep","metadata":{"a":${'{"v":'.repeat(3_000)}1${'}'.repeat(3_000)}}}`;
  const refused = await api.call('POST', '/v1/identities', { tenant, rawBody: deep });
  t.is(refused.status, 400);
  t.is(refused.json.error.code, 'invalid_request');
  t.not(refused.json.error.retryable, true);
  // Past the body bound it is refused before any schema walks it, naming the field.
  t.deepEqual(refused.json.error.details.issues, [{ path: 'body.metadata', message: 'nested deeper than 64 levels' }]);
  const over = await api.call('POST', '/v1/identities', { tenant, body: { label: 'deep', metadata: { a: nested(16) } } });
  t.is(over.status, 400);
  t.deepEqual(over.json.error.details.issues, [{ path: 'body.metadata', message: 'nested deeper than 16 levels' }]);
  const within = await api.call('POST', '/v1/identities', { tenant, body: { label: 'ok', metadata: { a: nested(14) } } });
  t.is(within.status, 201);
});

test('a body nested past the bound on any route is refused as invalid_request', async (t) => {
  const tenant = await api.tenant(ALL);
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  for (const path of ['/v1/webhooks', '/v1/auth/tokens', '/v1/identities/bulk']) {
    const refused = await api.call('POST', path, { tenant, rawBody: deep });
    t.is(refused.status, 400, path);
    t.is(refused.json.error.code, 'invalid_request', path);
  }
});

test('webhook URLs are stored normalised; userinfo, port 0, non-web ports and control characters are refused', async (t) => {
  const tenant = await api.tenant(ALL);
  const refusedUrls = [
    'https://example.com:22/in',
    'https://example.com:25/in',
    'https://example.com:6379/in',
    'https://example.com:0/in',
    'https://:@example.com/in',
    'https://user@example.com/in',
    'https://example.com/?q=\r\nX-Injected: 1',
    'https://example.com/\tin',
  ];
  for (const url of refusedUrls) {
    const created = await api.call('POST', '/v1/webhooks', { tenant, body: { url, events: ['email.received'] } });
    t.is(created.status, 400, JSON.stringify(url));
    t.is(created.json.error.code, 'invalid_request');
    t.is(created.json.error.details.issues[0].path, 'body.url');
  }
  const created = await api.call('POST', '/v1/webhooks', { tenant, body: { url: 'HTTPS://Hooks.Example.COM:443/a/../in?q=a b', events: ['email.received'] } });
  t.is(created.status, 201);
  t.is(created.json.url, 'https://hooks.example.com/in?q=a%20b');
  const other = await api.call('POST', '/v1/webhooks', { tenant, body: { url: 'https://hooks.example.com:8443/in', events: ['email.received'] } });
  t.is(other.json.url, 'https://hooks.example.com:8443/in', 'a web port other than 443 is kept');
  const patched = await api.call('PATCH', `/v1/webhooks/${created.json.id}`, { tenant, body: { url: 'https://HOOKS.example.com/x/./y' } });
  t.is(patched.status, 200);
  t.is(patched.json.url, 'https://hooks.example.com/x/y');
  const refusedPatch = await api.call('PATCH', `/v1/webhooks/${created.json.id}`, { tenant, body: { url: 'https://:@hooks.example.com/' } });
  t.is(refusedPatch.status, 400);
});
