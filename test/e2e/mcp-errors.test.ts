import { request } from 'node:http';
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { call, CLI, connectHttp, connectStdio, keyWith, mcpEnv, textOf } from './mcp-support.js';
import { freePort, spawnNode } from './support.js';

/** How the MCP server fails: API errors as tool results a model can act on, bad settings at start. */

let host: RunningHost;
let env: Record<string, string>;
test.before(async () => {
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'mcp.test' }));
  env = mcpEnv(host, await keyWith(host, ['identities:read', 'identities:write']));
});
test.after.always(() => host?.close());

const NO_CONFIG = { EPHEMAIL_URL: '', EPHEMAIL_API_KEY: '', EPHEMAIL_ORG_ID: '', EPHEMAIL_PROJECT_ID: '', EPHEMAIL_MCP_TOKEN: '' };

test('mcp errors: an API error is an isError result naming the code and the next step, never a stack', async (t) => {
  const connected = await connectStdio(env);
  t.teardown(() => connected.close());
  const unknown = await call(connected.client, 'wait_for_code', { inbox_id: 'ident_00000000AAAAAAAAAAAAAAAAAAAAAAAA', timeout_seconds: 2 });
  t.true(unknown.isError);
  t.regex(textOf(unknown), /^ephemail error identity_not_found \(HTTP 404\): .*list_inboxes/);
  t.regex(textOf(unknown), /\[request req_[A-Za-z0-9_-]{24}\]$/);
  t.notRegex(textOf(unknown), /\n\s+at /, 'no stack trace');
  t.is(unknown.structuredContent, undefined);
  const badId = await call(connected.client, 'extend_inbox', { inbox_id: 'someone@mcp.test', hours: 1 });
  t.true(badId.isError);
  t.regex(textOf(badId), /inbox id such as ident_/);
  const tooLong = await call(connected.client, 'create_inbox', { ttl_hours: 721 });
  t.true(tooLong.isError);
  t.regex(textOf(tooLong), /ttl_hours/);
});

test('mcp errors: waiting on an inbox that gets no mail ends in a wait_timeout result after timeout_seconds', async (t) => {
  const connected = await connectStdio(env);
  t.teardown(() => connected.close());
  const created = await call(connected.client, 'create_inbox', {});
  const inboxId = (created.structuredContent as { id: string }).id;
  const started = Date.now();
  const waited = await call(connected.client, 'wait_for_code', { inbox_id: inboxId, timeout_seconds: 2 });
  t.true(Date.now() - started >= 1_900, 'it blocked for the timeout');
  t.true(waited.isError);
  t.regex(textOf(waited), new RegExp(`^wait_timeout: no code arrived in inbox ${inboxId} within 2 s\\. No email at all has reached it\\. Check that the site was given exactly \\S+@mcp\\.test .*call again`));
});

test('mcp errors: a refused API key surfaces as unauthorized, and the key is in no text', async (t) => {
  const bogus = 'aid_ZZZZZZZZZZZZZZZZ_0123456789012345678901234567890123456789';
  const connected = await connectStdio({ ...env, EPHEMAIL_API_KEY: bogus });
  t.teardown(() => connected.close());
  const created = await call(connected.client, 'create_inbox', {});
  t.true(created.isError);
  t.regex(textOf(created), /^ephemail error unauthorized \(HTTP 401\).*EPHEMAIL_API_KEY/);
  t.false(textOf(created).includes(bogus));
  t.false(connected.stderr().includes(bogus));
});

test('mcp errors: an API that cannot be reached is api_unreachable, naming EPHEMAIL_URL', async (t) => {
  const closed = `http://127.0.0.1:${await freePort()}`;
  const connected = await connectStdio({ ...env, EPHEMAIL_URL: closed });
  t.teardown(() => connected.close());
  const listed = await call(connected.client, 'list_inboxes', {});
  t.true(listed.isError);
  t.regex(textOf(listed), new RegExp(`^api_unreachable: could not reach the ephemail API at ${closed}.*EPHEMAIL_URL`));
});

test('mcp errors: `ephemail mcp` without its settings exits 2 naming each missing variable, echoing no value', async (t) => {
  const missing = spawnNode(CLI, ['mcp'], { ...NO_CONFIG, EPHEMAIL_URL: 'ftp://api.example', EPHEMAIL_ORG_ID: 'org_mcp' });
  t.is(await missing.exited, 2);
  const { stderr, stdout } = missing.output();
  t.regex(stderr, /EPHEMAIL_URL: must be an http:\/\/ or https:\/\/ address/);
  t.regex(stderr, /EPHEMAIL_API_KEY is missing: set it to an API key/);
  t.regex(stderr, /EPHEMAIL_PROJECT_ID is missing/);
  t.notRegex(stderr, /EPHEMAIL_ORG_ID/);
  t.false(stderr.includes('ftp://api.example'));
  t.is(stdout, '', 'stdout stays clean for the protocol');
});

test('mcp errors: --http on a non-loopback address without EPHEMAIL_MCP_TOKEN refuses to start', async (t) => {
  const exposed = spawnNode(CLI, ['mcp', '--http', '0', '--host', '0.0.0.0'], { ...NO_CONFIG, ...env });
  t.is(await exposed.exited, 1);
  t.regex(exposed.output().stderr, /refusing to listen on 0\.0\.0\.0 without EPHEMAIL_MCP_TOKEN/);
  const stray = spawnNode(CLI, ['mcp', '--host', '127.0.0.1'], { ...NO_CONFIG, ...env });
  t.is(await stray.exited, 2);
  t.regex(stray.output().stderr, /--host needs --http <port>/);
});

/** One raw HTTP request to the endpoint, with headers fetch would not let us set (Host). */
const raw = (url: string, method: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) : undefined);
  });

test('mcp errors: the HTTP endpoint refuses foreign Host and Origin headers, other paths and GET', async (t) => {
  const connected = await connectHttp(env);
  t.teardown(() => connected.close());
  const { url } = connected;
  t.is((await raw(url, 'POST', { host: 'attacker.example' })).status, 403, 'a DNS-rebinding Host is refused');
  const origin = await raw(url, 'POST', { origin: 'https://attacker.example' });
  t.is(origin.status, 403);
  t.regex(origin.body, /Origin/);
  t.is((await raw(url, 'POST', { origin: 'http://localhost:6274' })).status, 200, 'a local inspector page may call');
  t.is((await raw(url.replace(/\/mcp$/, '/other'), 'POST', {})).status, 404);
  t.is((await raw(url, 'GET', {})).status, 405);
});

test('mcp errors: with EPHEMAIL_MCP_TOKEN, HTTP callers need the bearer token', async (t) => {
  const token = 'mcp-token-7f3a9c2e5b1d8f40';
  const connected = await connectHttp({ ...env, EPHEMAIL_MCP_TOKEN: token }, []).catch((error: unknown) => error);
  t.true(connected instanceof Error, 'a client without the token cannot connect');
  const server = spawnNode(CLI, ['mcp', '--http', '0'], { ...env, EPHEMAIL_MCP_TOKEN: token });
  t.teardown(() => server.child.kill('SIGTERM'));
  const url = (await server.waitFor(/Streamable HTTP on (http:\/\/\S+)/))[1]!;
  t.is((await raw(url, 'POST', { authorization: 'Bearer wrong-token-0000000000' })).status, 401);
  const client = new Client({ name: 'token-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  t.teardown(() => client.close());
  const listed = await call(client, 'list_inboxes', {});
  t.falsy(listed.isError, textOf(listed));
});
