import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createEphemail } from '@ephemail/core';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';

const right = <A>(either: { _tag: 'Left'; left: { _tag: string } } | { _tag: 'Right'; right: A }): A => {
  if (either._tag === 'Left') throw new Error(`expected Right, got ${either.left._tag}`);
  return either.right;
};

/** A SQLite store whose reads of API keys are counted. */
const countedStore = (path: string) => {
  const store = createSqliteDocumentStore(openSqliteDatabase(path));
  const reads = { keys: 0 };
  const get = store.get.bind(store);
  store.get = async (collection, id) => {
    if (collection === 'api_keys') reads.keys += 1;
    return get(collection, id);
  };
  return { store, reads };
};

const setup = async (t: { teardown: (fn: () => unknown) => void }) => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-keys-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'keys.db');
};

const credential = (key: string) => ({ authorization: `Bearer ${key}`, orgId: 'org_k', projectId: 'proj_k' });

test('api keys: a verified key is read once while no other connection writes; a revocation anywhere is seen at once', async (t) => {
  const path = await setup(t);
  const { store, reads } = countedStore(path);
  // Two services over one handle, as an embedder may run them; and a second connection, as the CLI.
  const a = createEphemail({ store, inboxDomain: 'inbox.test' });
  const b = createEphemail({ store, inboxDomain: 'inbox.test' });
  await a.init();
  const cli = createSqliteDocumentStore(openSqliteDatabase(path));
  const admin = createEphemail({ store: cli, inboxDomain: 'inbox.test' });
  t.teardown(async () => {
    await cli.close();
    await store.close();
  });
  const first = right(await a.auth.createApiKey({ orgId: 'org_k', projectIds: ['proj_k'], scopes: ['identities:read'], plan: 'growth' }));
  const second = right(await a.auth.createApiKey({ orgId: 'org_k', projectIds: ['proj_k'], scopes: ['identities:read'], plan: 'growth' }));
  const before = reads.keys;
  for (let i = 0; i < 5; i += 1) right(await a.auth.authenticate(credential(first.key)));
  t.is(reads.keys - before, 1, 'five requests, one read');
  t.is((await a.auth.authenticate(credential(`${first.key.slice(0, -1)}${first.key.endsWith('x') ? 'y' : 'x'}`)))._tag, 'Left', 'a wrong secret is refused, kept record or not');

  // Revoked through the same handle by the other service: forgotten at once.
  right(await b.auth.revokeApiKey(first.record.id));
  t.is((await a.auth.authenticate(credential(first.key)))._tag, 'Left');

  // Revoked through another connection (another process, the CLI): the change mark moves.
  right(await a.auth.authenticate(credential(second.key)));
  right(await admin.auth.revokeApiKey(second.record.id));
  t.is((await a.auth.authenticate(credential(second.key)))._tag, 'Left');
});
