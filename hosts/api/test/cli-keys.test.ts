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
  const host = await startHost(loadConfig({ DATABASE_URL: process.env.DATABASE_URL, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', EPHEMAIL_MODE: 'production', INBOX_DOMAIN: 'in.test', DATA_KEY: 'b'.repeat(64), PAYMENTS: 'off' }));
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

test.serial('cli: with PAYMENTS=off the plan is what `orgs set-plan` assigns, and billing routes say billing is not configured', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  process.env.DATABASE_URL = `sqlite:${join(dir, 'db.sqlite')}`;
  t.teardown(() => delete process.env.DATABASE_URL);
  const host = await startHost(loadConfig({ DATABASE_URL: process.env.DATABASE_URL, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', EPHEMAIL_MODE: 'production', INBOX_DOMAIN: 'in.test', DATA_KEY: 'c'.repeat(64), PAYMENTS: 'off' }));
  t.teardown(() => host.close());
  const created = capture();
  t.is(await runCli(['keys', 'create', '--org', 'org_self', '--project', 'proj_self', '--scopes', 'billing:read,billing:write,trials:write', '--json'], created.io), 0, created.err());
  const headers = { authorization: `Bearer ${JSON.parse(created.out()).key}`, 'x-org-id': 'org_self', 'x-project-id': 'proj_self' };
  const usage = async () => (await (await fetch(`${host.url}/v1/billing/usage`, { headers })).json()) as { identities_limit: number };
  t.is((await usage()).identities_limit, 50, 'a new organization is on starter');

  const assigned = capture();
  t.is(await runCli(['orgs', 'set-plan', '--org', 'org_self', '--plan', 'pro', '--json'], assigned.io), 0, assigned.err());
  t.deepEqual(JSON.parse(assigned.out()), { org_id: 'org_self', assigned_plan: 'pro', plan_in_force: 'pro' });
  await new Promise((resolve) => setTimeout(resolve, 1_100)); // the host keeps a plan it read for a second (PLAN_CACHE_MS)
  t.is((await usage()).identities_limit, 5_000);
  t.is(await runCli(['orgs', 'set-plan', '--org', 'org_nobody', '--plan', 'pro'], capture().io), 1);
  const wrong = capture();
  t.is(await runCli(['orgs', 'set-plan', '--org', 'org_self', '--plan', 'gold'], wrong.io), 2);
  t.regex(wrong.err(), /unknown plan gold/);

  const post = (path: string, body: unknown) =>
    fetch(`${host.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `k-${path}` }, body: JSON.stringify(body) });
  for (const answer of [await fetch(`${host.url}/v1/billing/subscription`, { headers }), await post('/v1/billing/checkout', { plan: 'enterprise' }), await post('/v1/trials/start', { plan: 'pro' }), await post('/v1/billing/portal', {})]) {
    t.is(answer.status, 501);
    const body = (await answer.json()) as { error: { code: string; message: string }; retryable: boolean };
    t.is(body.error.code, 'billing_not_configured');
    t.regex(body.error.message, /not configured/);
    t.false(body.retryable);
  }
  t.is((await fetch(`${host.url}/sandbox/checkout/anything`)).status, 404, 'no sandbox pages');
  t.is((await post('/v1/billing/callbacks/sandbox', {})).status, 404, 'no callback endpoint');
});
