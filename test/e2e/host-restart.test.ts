import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { freePort, repoRoot, spawnNode, tempDir } from './support.js';

const MAIN = join(repoRoot, 'hosts/api/src/main.ts');

const api = (base: string, key: string) => async (method: string, path: string, body?: unknown, idem?: string) => {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'x-org-id': 'org_dev', 'x-project-id': 'proj_dev' };
  if (method !== 'GET') headers['idempotency-key'] = idem ?? randomUUID();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as any, headers: res.headers };
};

test('e2e: npm start prints a working key once; SIGTERM stops cleanly; a restart loses nothing', async (t) => {
  const { dir, cleanup } = tempDir('ephemail-e2e');
  t.teardown(cleanup);
  const port = await freePort();
  const env = { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, PORT: String(port), SMTP_PORT: '0', LOG_LEVEL: 'warn', EPHEMAIL_MODE: 'development' };
  const first = spawnNode(MAIN, [], env);
  t.teardown(() => first.child.kill('SIGKILL'));
  const key = (await first.waitFor(/^\s+(aid_[A-Za-z0-9]{16}_[A-Za-z0-9]{40})$/m))[1]!;
  t.true(first.output().stderr.includes(`curl -s -X POST http://127.0.0.1:${port}/v1/identities`));
  t.true(first.output().stdout.split('\n').filter(Boolean).every((line) => line.startsWith('{')), 'stdout is JSON lines only');
  const call = api(`http://127.0.0.1:${port}`, key);

  const parent = await call('POST', '/v1/identities', { label: 'kept', ttl_hours: 48, metadata: { n: 1 } }, 'create-parent');
  t.is(parent.status, 201);
  const child = await call('POST', `/v1/identities/${parent.json.id}/children`, { label: 'kid' });
  const squashed = await call('POST', '/v1/identities', { label: 'gone' });
  await call('POST', `/v1/identities/${squashed.json.id}/squash`);
  await call('POST', `/v1/identities/${parent.json.id}/extend`, { additional_hours: 2 });

  first.child.kill('SIGTERM');
  t.is(await first.exited, 0, 'graceful shutdown exits 0');

  const second = spawnNode(MAIN, [], env);
  t.teardown(() => second.child.kill('SIGKILL'));
  await second.waitFor(/was printed at first start/);
  t.false(/aid_[A-Za-z0-9]{16}_/.test(second.output().stdout + second.output().stderr), 'the key is not printed again');

  const again = await call('GET', `/v1/identities/${parent.json.id}`);
  t.is(again.json.status, 'extended');
  t.deepEqual(again.json.metadata, { n: 1 });
  t.is((await call('GET', `/v1/identities/${squashed.json.id}`)).json.status, 'squashed');
  const lineage = await call('GET', `/v1/identities/${parent.json.id}/lineage`);
  t.deepEqual(lineage.json.nodes.map((n: { id: string }) => n.id), [parent.json.id, child.json.id]);
  const events = await call('GET', `/v1/identities/${parent.json.id}/events`);
  t.deepEqual(events.json.items.map((e: { type: string }) => e.type), ['identity.extended', 'identity.provisioned']);
  const replay = await call('POST', '/v1/identities', { label: 'kept', ttl_hours: 48, metadata: { n: 1 } }, 'create-parent');
  t.is(replay.headers.get('idempotent-replayed'), 'true', 'idempotency keys survive the restart');
  t.is(replay.json.id, parent.json.id);
  t.is((await call('GET', '/v1/identities')).json.total, 3);

  second.child.kill('SIGTERM');
  t.is(await second.exited, 0);
});

test('e2e: a bad environment fails fast naming the variable', async (t) => {
  const bad = spawnNode(MAIN, [], { PORT: 'eighty', EPHEMAIL_MODE: 'production', DATABASE_URL: 'memory:' });
  t.is(await bad.exited, 1);
  const { stderr } = bad.output();
  t.regex(stderr, /PORT/);
  t.regex(stderr, /INBOX_DOMAIN: required in production mode/);
});
