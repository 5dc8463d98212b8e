import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '@ephemail/core';
import { bootstrapCredentials, restartNotice } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';

const development = () => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const ephemail = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock });
  const config = loadConfig({ DATABASE_URL: 'memory:', EPHEMAIL_MODE: 'development', LOG_LEVEL: 'silent' });
  return { clock, ephemail, config };
};

test('bootstrap: a restart names the key printed at first start, not a newer one made with keys create', async (t) => {
  const { clock, ephemail, config } = development();
  await ephemail.init();
  const first = await bootstrapCredentials(ephemail, config);
  if (first.kind !== 'created') return t.fail(first.kind);
  clock.advance(60_000);
  const later = await ephemail.auth.createApiKey({ orgId: config.BOOTSTRAP_ORG_ID, projectIds: [config.BOOTSTRAP_PROJECT_ID], scopes: ['identities:read'], plan: 'starter', name: 'api key' });
  if (E.isLeft(later)) return t.fail(later.left._tag);
  const again = await bootstrapCredentials(ephemail, config);
  t.deepEqual(again, { kind: 'existing', keyId: first.keyId });
  const notice = restartNotice('http://127.0.0.1:3000', first.keyId, config);
  t.true(notice.includes(`The development key ${first.keyId} was printed at first start`), notice);
  t.false(notice.includes(later.right.record.id));

  // The first key revoked, the newer one is not passed off as it, and no second key is made.
  await ephemail.auth.revokeApiKey(first.keyId);
  t.deepEqual(await bootstrapCredentials(ephemail, config), { kind: 'existing', keyId: undefined });
  t.regex(restartNotice('http://127.0.0.1:3000', undefined, config), /The development key printed at first start is revoked; make another with/);
});

test('bootstrap: the suggested keys create command gives the scopes the README\u2019s examples need, secrets:read included', (t) => {
  const { config } = development();
  const notice = restartNotice('http://127.0.0.1:3000', 'key_x', config);
  const scopes = /--scopes (\S+)/.exec(notice)?.[1]?.split(',') ?? [];
  // Create an identity, read it, and reveal its code (waitForCode, `ephemail wait`).
  for (const needed of ['identities:write', 'identities:read', 'secrets:read']) t.true(scopes.includes(needed), needed);
  t.regex(notice, /npx ephemail keys create --org org_dev --project proj_dev --scopes /);
});
