import { join } from 'node:path';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { createEphemail, FakeClock } from '@ephemail/core';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';
import { repoRoot, spawnNode, tempDir } from './support.js';

const WORKER = join(repoRoot, 'test/e2e/fixtures/maintenance-worker.ts');

test('e2e: two maintenance processes over one SQLite file expire each identity exactly once', async (t) => {
  const { dir, cleanup } = tempDir('ephemail-sched');
  t.teardown(cleanup);
  const path = join(dir, 'shared.sqlite');
  const clock = new FakeClock('2026-05-01T00:00:00.000Z');
  const app = createEphemail({ store: createSqliteDocumentStore(openSqliteDatabase(path)), inboxDomain: 'inbox.test', clock });
  await app.init();
  const key = await app.auth.createApiKey({ orgId: 'org_s', projectIds: ['proj_s'], scopes: ['identities:write'], plan: 'pro' });
  if (E.isLeft(key)) return t.fail();
  const principal = await app.auth.authenticate({ authorization: `Bearer ${key.right.key}`, orgId: 'org_s', projectId: 'proj_s' });
  if (E.isLeft(principal)) return t.fail();
  const ids: string[] = [];
  for (let i = 0; i < 120; i += 1) {
    const created = await app.identities.create(principal.right, { label: `s${i}`, ttl_hours: 1 });
    if (E.isRight(created)) ids.push(created.right.id);
  }
  t.is(ids.length, 120);

  const later = '2026-05-01T02:00:00.000Z';
  const workers = ['a', 'b'].map((owner) => spawnNode(WORKER, [path, later, owner], {}));
  const codes = await Promise.all(workers.map((w) => w.exited));
  t.deepEqual(codes, [0, 0], JSON.stringify(workers.map((w) => w.output().stderr)));
  const reports = workers.map((w) => JSON.parse(w.output().stdout.trim()) as { expired: number });
  t.is(reports[0]!.expired + reports[1]!.expired, 120, 'every identity expired by exactly one process');

  for (const id of ids) {
    const events = await app.deps.store.count('events', { where: { identity_id: id, type: 'identity.expired' } });
    t.is(events, 1, `one identity.expired event for ${id}`);
  }
  const counter = await app.deps.store.get('counters', 'identities:org_s');
  t.is(counter?.count, 0, 'each expiry released its quota place exactly once');
  await app.close();
});
