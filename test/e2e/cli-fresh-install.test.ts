import { execFile } from 'node:child_process';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { repoRoot, tempDir } from './support.js';

/**
 * The README's `npx ephemail …` as a fresh clone runs it after `npm install`: from the repository
 * root, through the link npm made in node_modules/.bin (`--no-install`: never fetch a package of
 * that name from the registry instead).
 */
const npxEphemail = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)('npx', ['--no-install', 'ephemail', ...args], { cwd: repoRoot, env: { ...process.env, ...env } });

const codeMail = (code: string): string =>
  ['From: Acme <no-reply@acme.example.com>', 'Subject: Your Acme code', 'Content-Type: text/plain; charset=utf-8', '', 'Your verification code is:', '', code, ''].join('\r\n');

test('cli install: npm links node_modules/.bin/ephemail to the committed bin file, which does not need a build to exist', (t) => {
  const link = join(repoRoot, 'node_modules/.bin/ephemail');
  t.true(existsSync(link), 'npm install made no node_modules/.bin/ephemail');
  t.is(realpathSync(link), join(repoRoot, 'hosts/api/bin/ephemail.js'));
});

test('cli install: `npx ephemail keys create --json` from the repository root creates a key in DATABASE_URL', async (t) => {
  const { dir, cleanup } = tempDir('ephemail-npx-keys');
  t.teardown(cleanup);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EPHEMAIL_MODE: 'development', LOG_LEVEL: 'silent' };
  const { stdout } = await npxEphemail(['keys', 'create', '--org', 'org_npx', '--project', 'proj_npx', '--scopes', 'identities:read', '--json'], env);
  const created = JSON.parse(stdout) as { key: string; id: string; org_id: string; project_id: string; scopes: string[] };
  t.regex(created.key, /^aid_[A-Za-z0-9]{16}_[A-Za-z0-9]{40}$/);
  t.like(created, { org_id: 'org_npx', project_id: 'proj_npx', scopes: ['identities:read'] });
  const listed = await npxEphemail(['keys', 'list', '--json'], env);
  t.is((JSON.parse(listed.stdout) as { id: string }).id, created.id, 'the key was stored in that database');
});

test('cli install: `npx ephemail extract --reveal <dir>` from the repository root prints the code of each message', async (t) => {
  const { dir, cleanup } = tempDir('ephemail-npx-extract');
  t.teardown(cleanup);
  writeFileSync(join(dir, 'code.eml'), codeMail('418265'));
  const { stdout } = await npxEphemail(['extract', '--reveal', dir]);
  const line = JSON.parse(stdout) as { file: string; extractions: { type: string; value: string }[] };
  t.is(line.file, join(dir, 'code.eml'));
  t.like(line.extractions[0], { type: 'otp', value: '418265' });
});
