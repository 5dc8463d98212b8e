import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import test from 'ava';
import { loadConfig, runCli, startHost } from '../src/index.js';

const capture = () => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  return { io: { stdout, stderr }, out: () => out, err: () => err };
};

// Serial: the CLI reads DATABASE_URL from the process environment, which these tests set.
test.serial('cli: keys create/list/revoke work against the database of a running host', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  process.env.DATABASE_URL = `sqlite:${join(dir, 'db.sqlite')}`;
  t.teardown(() => delete process.env.DATABASE_URL);
  const host = await startHost(loadConfig({ DATABASE_URL: process.env.DATABASE_URL, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', EPHEMAIL_MODE: 'production', INBOX_DOMAIN: 'in.test', DATA_KEY: 'b'.repeat(64) }));
  t.teardown(() => host.close());
  t.is(host.bootstrap.kind, 'none', 'production mode makes no key by itself');

  const created = capture();
  const code = await runCli(['keys', 'create', '--org', 'org_cli', '--project', 'proj_cli', '--scopes', 'identities:read,identities:write', '--json'], created.io);
  t.is(code, 0, created.err());
  const printed = JSON.parse(created.out());
  t.deepEqual(Object.keys(printed).sort(), ['id', 'key', 'org_id', 'project_id', 'project_ids', 'scopes']);
  t.regex(printed.key, /^aid_/);
  t.deepEqual([printed.org_id, printed.project_id, printed.scopes], ['org_cli', 'proj_cli', ['identities:read', 'identities:write']]);

  const headers = { authorization: `Bearer ${printed.key}`, 'x-org-id': 'org_cli', 'x-project-id': 'proj_cli' };
  t.is((await fetch(`${host.url}/v1/me`, { headers })).status, 200, 'the running host accepts the new key');

  const listed = capture();
  t.is(await runCli(['keys', 'list', '--json'], listed.io), 0);
  const rows = listed.out().trim().split('\n').map((line) => JSON.parse(line));
  t.is(rows.length, 1);
  t.false(listed.out().includes(printed.key.split('_')[2]), 'list never shows the secret');
  t.false('secret_hash' in rows[0]);

  const revoked = capture();
  t.is(await runCli(['keys', 'revoke', printed.id], revoked.io), 0);
  t.is((await fetch(`${host.url}/v1/me`, { headers })).status, 401, 'revocation takes effect at once');
  t.is(await runCli(['keys', 'revoke', 'key_nope'], capture().io), 1);
});

test.serial('cli: bad input answers a non-zero exit and a clear message', async (t) => {
  process.env.DATABASE_URL = 'memory:';
  t.teardown(() => delete process.env.DATABASE_URL);
  const bad = capture();
  t.is(await runCli(['keys', 'create', '--org', 'o', '--project', 'p', '--scopes', 'root'], bad.io), 2);
  t.regex(bad.err(), /unknown: root/);
  const missing = capture();
  t.not(await runCli(['keys', 'create', '--org', 'o'], missing.io), 0);
  t.regex(missing.err(), /required option/);
});
