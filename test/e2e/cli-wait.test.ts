import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { freePort, repoRoot, spawnNode } from './support.js';
import { type MailContent, tenantHost } from './tenant-host.js';

/** `ephemail wait` from source, against a real host: mail through its MX, the CLI over HTTP. */

const CLI = join(repoRoot, 'hosts/api/src/cli.ts');
const ORG = 'org_wait';
const PROJECT = 'proj_wait';
const CODE = '572049';
const LINK = 'https://shop.example.com/login/magic?token=Hs7Kq2Lm9Xp4Rt6Vw8Yz';

const tenant = tenantHost(test, { org: ORG, project: PROJECT, inboxDomain: 'wait.test' });
const { host, keyWith } = tenant;

const newIdentity = async (key: string) => {
  const headers = { ...tenant.headersOf(key), 'idempotency-key': randomUUID(), 'content-type': 'application/json' };
  const res = await fetch(`${host().url}/v1/identities`, { method: 'POST', headers, body: JSON.stringify({ label: 'cli wait' }) });
  return (await res.json()) as { id: string; email: string };
};

const send = (to: string, content: MailContent) => tenant.send(to, { from: 'no-reply@shop.example.com', ...content });

/** Resolves once the host holds at least one long-poll: the CLI is waiting. */
const someoneWaits = async () => {
  for (let i = 0; i < 400; i += 1) {
    const metrics = await (await fetch(`${host().url}/metrics`)).text();
    if (Number(/^ephemail_longpoll_waiters (\d+)/m.exec(metrics)?.[1] ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the CLI never started waiting');
};

const env = (key: string) => ({ EPHEMAIL_URL: host().url, EPHEMAIL_API_KEY: key, EPHEMAIL_ORG_ID: ORG, EPHEMAIL_PROJECT_ID: PROJECT });
const SCOPES = ['identities:read', 'identities:write', 'secrets:read'];

test('cli wait: prints the raw code alone on stdout once the mail arrives, and exits 0', async (t) => {
  const key = await keyWith(SCOPES);
  const identity = await newIdentity(key);
  const cli = spawnNode(CLI, ['wait', '--identity', identity.id, '--timeout', '30'], env(key));
  t.teardown(() => cli.child.kill('SIGKILL'));
  await someoneWaits();
  await send(identity.email, { subject: 'Your code', text: `Use ${CODE} to finish signing in.` });
  t.is(await cli.exited, 0, cli.output().stderr);
  t.is(cli.output().stdout, `${CODE}\n`);
  t.false((cli.output().stdout + cli.output().stderr).includes(key), 'the key is never printed');
});

test('cli wait: --link prints the magic link, stepping past a code', async (t) => {
  const key = await keyWith(SCOPES);
  const identity = await newIdentity(key);
  await send(identity.email, { subject: 'Your code', text: `Use ${CODE} to finish signing in.` });
  await send(identity.email, { subject: 'Sign in to Shop', html: `<p><a href="${LINK}">Sign in</a></p>` });
  const cli = spawnNode(CLI, ['wait', '--identity', identity.id, '--link', '--timeout', '30'], env(key));
  t.teardown(() => cli.child.kill('SIGKILL'));
  t.is(await cli.exited, 0, cli.output().stderr);
  t.is(cli.output().stdout, `${LINK}\n`);
});

test('cli wait: --code prints a code that arrived before a link at once, and --link the link', async (t) => {
  const key = await keyWith(SCOPES);
  const identity = await newIdentity(key);
  await send(identity.email, { subject: 'Your code', text: `Use ${CODE} to finish signing in.` });
  await send(identity.email, { subject: 'Sign in to Shop', html: `<p><a href="${LINK}">Sign in</a></p>` });
  // Before reads by type, --code stepped past the latest extraction (the link) and timed out.
  const code = spawnNode(CLI, ['wait', '--identity', identity.id, '--code', '--timeout', '20'], env(key));
  t.teardown(() => code.child.kill('SIGKILL'));
  t.is(await code.exited, 0, code.output().stderr);
  t.is(code.output().stdout, `${CODE}\n`);
  const link = spawnNode(CLI, ['wait', '--identity', identity.id, '--link', '--timeout', '20'], env(key));
  t.teardown(() => link.child.kill('SIGKILL'));
  t.is(await link.exited, 0, link.output().stderr);
  t.is(link.output().stdout, `${LINK}\n`);
});

/** What `extractions/latest?type=` answers now: the raw value, or undefined on 404. */
const latestOfType = async (key: string, id: string, type: 'otp' | 'magic_link') => {
  const headers = { authorization: `Bearer ${key}`, 'x-org-id': ORG, 'x-project-id': PROJECT };
  const res = await fetch(`${host().url}/v1/identities/${id}/extractions/latest?type=${type}&reveal=true`, { headers });
  return res.status === 404 ? undefined : ((await res.json()) as { value: string }).value;
};

test('cli wait: one mail holding a code and a link prints, for --code and for --link, what the API serves by type', async (t) => {
  const key = await keyWith(SCOPES);
  const identity = await newIdentity(key);
  await send(identity.email, { subject: 'Sign in to Shop', text: `Your code is ${CODE}.\nOr sign in with this link: ${LINK}`, html: `<p>Your code is <b>${CODE}</b>.</p><p>Or <a href="${LINK}">sign in</a>.</p>` });
  let printed = 0;
  for (const [flag, type, expected] of [['--code', 'otp', CODE], ['--link', 'magic_link', LINK]] as const) {
    // Whether the runner-up is served is the engine's call (its confidence): the CLI must print exactly what the API serves.
    const served = await latestOfType(key, identity.id, type);
    if (served === undefined) continue;
    t.is(served, expected);
    const cli = spawnNode(CLI, ['wait', '--identity', identity.id, flag, '--timeout', '20'], env(key));
    t.teardown(() => cli.child.kill('SIGKILL'));
    t.is(await cli.exited, 0, cli.output().stderr);
    t.is(cli.output().stdout, `${expected}\n`);
    printed += 1;
  }
  t.true(printed >= 1, 'the mail serves at least the type of its winner');
});

const squash = async (key: string, id: string) => {
  const headers = { authorization: `Bearer ${key}`, 'x-org-id': ORG, 'x-project-id': PROJECT, 'idempotency-key': randomUUID(), 'content-type': 'application/json' };
  const res = await fetch(`${host().url}/v1/identities/${id}/squash`, { method: 'POST', headers, body: '{}' });
  if (res.status !== 200) throw new Error(`squash answered ${res.status}`);
};

test('cli wait: a squashed identity exits 5 at once, saying no mail can arrive, even if it holds an old code', async (t) => {
  const key = await keyWith(SCOPES);
  const identity = await newIdentity(key);
  await send(identity.email, { subject: 'Your code', text: `Use ${CODE} to finish signing in.` });
  await squash(key, identity.id);
  const cli = spawnNode(CLI, ['wait', '--identity', identity.id, '--code', '--timeout', '60'], env(key));
  t.teardown(() => cli.child.kill('SIGKILL'));
  t.is(await cli.exited, 5);
  t.is(cli.output().stdout, '', 'the old code is not printed');
  t.regex(cli.output().stderr, new RegExp(`^ephemail wait: identity ${identity.id} was squashed \\(deleted\\): it receives no more mail, so no code can arrive; create a new identity \\(identity_already_squashed, request req_`));
});

test('cli wait: an identity squashed during the wait ends it at once with exit 5', async (t) => {
  const key = await keyWith(SCOPES);
  const identity = await newIdentity(key);
  const cli = spawnNode(CLI, ['wait', '--identity', identity.id, '--link', '--timeout', '60'], env(key));
  t.teardown(() => cli.child.kill('SIGKILL'));
  await someoneWaits();
  await squash(key, identity.id);
  t.is(await cli.exited, 5);
  t.regex(cli.output().stderr, /was squashed \(deleted\): it receives no more mail, so no link can arrive/);
});

test('cli wait: flags override the environment', async (t) => {
  const key = await keyWith(SCOPES);
  const identity = await newIdentity(key);
  await send(identity.email, { subject: 'Your code', text: `Use ${CODE} to finish signing in.` });
  const wrong = { EPHEMAIL_URL: `http://127.0.0.1:${await freePort()}`, EPHEMAIL_API_KEY: key, EPHEMAIL_ORG_ID: 'org_other', EPHEMAIL_PROJECT_ID: 'proj_other' };
  const cli = spawnNode(CLI, ['wait', '--identity', identity.id, '--url', host().url, '--org', ORG, '--project', PROJECT], wrong);
  t.teardown(() => cli.child.kill('SIGKILL'));
  t.is(await cli.exited, 0, cli.output().stderr);
  t.is(cli.output().stdout, `${CODE}\n`);
});

test('cli wait: nothing arriving exits 1 after --timeout with a message on stderr only', async (t) => {
  const key = await keyWith(SCOPES);
  const identity = await newIdentity(key);
  const started = Date.now();
  const cli = spawnNode(CLI, ['wait', '--identity', identity.id, '--code', '--timeout', '2'], env(key));
  t.teardown(() => cli.child.kill('SIGKILL'));
  t.is(await cli.exited, 1);
  t.true(Date.now() - started >= 2_000);
  t.is(cli.output().stdout, '');
  t.is(cli.output().stderr, `ephemail wait: no code arrived for ${identity.id} within 2 s\n`);
});

test('cli wait: a key without secrets:read exits 3 saying so, and prints no value', async (t) => {
  const key = await keyWith(['identities:read', 'identities:write']);
  const identity = await newIdentity(key);
  await send(identity.email, { subject: 'Your code', text: `Use ${CODE} to finish signing in.` });
  const cli = spawnNode(CLI, ['wait', '--identity', identity.id], env(key));
  t.teardown(() => cli.child.kill('SIGKILL'));
  t.is(await cli.exited, 3);
  t.is(cli.output().stdout, '');
  t.regex(cli.output().stderr, /^ephemail wait: the API key may not reveal secrets: it needs the secrets:read scope/);
  t.false(cli.output().stderr.includes(key));
});

test('cli wait: an unknown identity exits 4 with the API code; bad usage exits 2 naming what is missing', async (t) => {
  const key = await keyWith(SCOPES);
  const unknown = spawnNode(CLI, ['wait', '--identity', 'ident_00000000AAAAAAAAAAAAAAAAAAAAAAAA'], env(key));
  t.teardown(() => unknown.child.kill('SIGKILL'));
  t.is(await unknown.exited, 4);
  t.regex(unknown.output().stderr, /^ephemail wait: the API answered 404 identity_not_found: .*\(request req_[A-Za-z0-9_-]{24}\)\n$/);
  const unset = spawnNode(CLI, ['wait', '--identity', 'ident_x'], { EPHEMAIL_URL: '', EPHEMAIL_API_KEY: '', EPHEMAIL_ORG_ID: '', EPHEMAIL_PROJECT_ID: '' });
  t.is(await unset.exited, 2);
  t.is(unset.output().stderr, 'ephemail wait: set EPHEMAIL_URL, EPHEMAIL_API_KEY, EPHEMAIL_ORG_ID, EPHEMAIL_PROJECT_ID (see `ephemail wait --help`)\n');
  const both = spawnNode(CLI, ['wait', '--identity', 'ident_x', '--code', '--link'], env(key));
  t.is(await both.exited, 2);
  const none = spawnNode(CLI, ['wait'], env(key));
  t.is(await none.exited, 2);
  t.regex(none.output().stderr, /give --identity <id>/);
});
