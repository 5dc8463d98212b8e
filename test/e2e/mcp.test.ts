import { spawn } from 'node:child_process';
import test, { type ExecutionContext } from 'ava';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { call, CLI, connectHttp, connectStdio, keyWith, mcpEnv, sendMail, textOf, type Connected } from './mcp-support.js';
import { repoRoot, SOURCE_NODE_ARGS } from './support.js';

/**
 * The MCP server as an agent meets it: `ephemail mcp` spawned from source, the SDK's own client
 * on stdio and on Streamable HTTP, a real host behind it, and mail arriving over SMTP.
 */

const CODE = '604913';
const MASKED_CODE = '6•••3';
const LINK = 'https://app.example.com/auth/verify?token=Qm7xT2vLp9Rk4sWz';

interface Inbox {
  id: string;
  email: string;
  label: string;
  status: string;
  created_at: string;
  expires_at: string;
}

let host: RunningHost;
let revealing: Record<string, string>;
let masked: Record<string, string>;
test.before(async () => {
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'mcp.test' }));
  revealing = mcpEnv(host, await keyWith(host, ['identities:read', 'identities:write', 'secrets:read']));
  masked = mcpEnv(host, await keyWith(host, ['identities:read', 'identities:write']));
});
test.after.always(() => host?.close());

const createInbox = async (t: ExecutionContext, connected: Connected, args: Record<string, unknown> = {}): Promise<Inbox> => {
  const created = await call(connected.client, 'create_inbox', args);
  t.falsy(created.isError, textOf(created));
  return created.structuredContent as unknown as Inbox;
};

/** What an agent does: make an inbox, have a code sent to it, read it, keep the inbox a while, drop it. */
const agentScript = async (t: ExecutionContext, connected: Connected) => {
  const { client } = connected;
  const inbox = await createInbox(t, connected, { label: 'signup at example', ttl_hours: 2 });
  t.regex(inbox.id, /^ident_/);
  t.regex(inbox.email, /^[a-z0-9]{14}@mcp\.test$/);
  t.like(inbox, { label: 'signup at example', status: 'provisioned' });
  t.is(Date.parse(inbox.expires_at) - Date.parse(inbox.created_at), 2 * 3_600_000, 'ttl_hours is in hours');

  const waiting = call(client, 'wait_for_code', { inbox_id: inbox.id, timeout_seconds: 30 });
  await sendMail(host, { to: inbox.email, subject: 'Your sign-in code', text: `Your verification code is ${CODE}. It expires in 10 minutes.` });
  const got = await waiting;
  t.falsy(got.isError, textOf(got));
  t.like(got.structuredContent, { inbox_id: inbox.id, code: CODE, redacted_code: MASKED_CODE, revealed: true });
  t.true(textOf(got).includes(CODE));

  const redacted = await call(client, 'read_latest_message', { inbox_id: inbox.id });
  t.falsy(redacted.isError, textOf(redacted));
  t.like(redacted.structuredContent, { inbox_id: inbox.id, revealed: false, message: { subject: 'Your sign-in code', from: 'Example App <no-reply@app.example.com>' } });
  t.false(JSON.stringify(redacted).includes(CODE), 'no raw code anywhere in a read without reveal');
  t.true(textOf(redacted).includes(MASKED_CODE));
  const revealed = await call(client, 'read_latest_message', { inbox_id: inbox.id, reveal: true });
  t.like(revealed.structuredContent, { revealed: true });
  t.true(textOf(revealed).includes(`Your verification code is ${CODE}.`));

  const extended = await call(client, 'extend_inbox', { inbox_id: inbox.id, hours: 3 });
  t.falsy(extended.isError, textOf(extended));
  t.like(extended.structuredContent, { id: inbox.id, status: 'extended' });
  t.is(Date.parse((extended.structuredContent as unknown as Inbox).expires_at) - Date.parse(inbox.expires_at), 3 * 3_600_000);

  const listed = await call(client, 'list_inboxes', { status: 'extended', limit: 200 });
  t.true((listed.structuredContent as { inboxes: Inbox[] }).inboxes.some((i) => i.id === inbox.id));

  const deleted = await call(client, 'delete_inbox', { inbox_id: inbox.id });
  t.like(deleted.structuredContent, { id: inbox.id, status: 'squashed' });
  const again = await call(client, 'delete_inbox', { inbox_id: inbox.id });
  t.true(again.isError);
  t.regex(textOf(again), /identity_already_squashed.*create_inbox/);
  // The deleted inbox still holds the code: a wait must say it is gone, not hand the old code back.
  const afterDelete = await call(client, 'wait_for_code', { inbox_id: inbox.id, timeout_seconds: 30 });
  t.true(afterDelete.isError);
  t.regex(textOf(afterDelete), new RegExp(`^ephemail error identity_already_squashed \\(HTTP 409\\): inbox ${inbox.id} was deleted, so no code can arrive in it any more\\. .*create_inbox`));
  t.false(textOf(afterDelete).includes(CODE));
  t.deepEqual(connected.transportErrors, []);
};

test('mcp (stdio): an agent creates an inbox, gets the code mailed to it, reads the message masked and revealed, extends and deletes it', async (t) => {
  const connected = await connectStdio(revealing);
  t.teardown(() => connected.close());
  await agentScript(t, connected);
});

test('mcp (Streamable HTTP on 127.0.0.1): the same agent script works end to end', async (t) => {
  const connected = await connectHttp(revealing);
  t.teardown(() => connected.close());
  t.regex(connected.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  await agentScript(t, connected);
});

test('mcp: the seven tools are listed with descriptions, input schemas with units and defaults, and output schemas', async (t) => {
  const connected = await connectStdio(revealing);
  t.teardown(() => connected.close());
  const { tools } = await connected.client.listTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  t.deepEqual([...byName.keys()].sort(), ['create_inbox', 'delete_inbox', 'extend_inbox', 'list_inboxes', 'read_latest_message', 'wait_for_code', 'wait_for_link']);
  for (const tool of tools) {
    t.true((tool.description ?? '').length > 150, `${tool.name} explains itself`);
    t.is(tool.inputSchema.type, 'object');
    t.is(tool.outputSchema?.type, 'object', `${tool.name} declares its output`);
  }
  const input = (name: string, field: string) => (byName.get(name)!.inputSchema.properties as Record<string, Record<string, unknown>>)[field]!;
  t.like(input('create_inbox', 'ttl_hours'), { type: 'integer', minimum: 1, maximum: 720, default: 24 });
  t.regex(String(input('create_inbox', 'ttl_hours').description), /hours/);
  t.like(input('wait_for_code', 'timeout_seconds'), { type: 'integer', minimum: 1, maximum: 300, default: 45 });
  t.regex(String(input('wait_for_code', 'timeout_seconds').description), /seconds/);
  t.regex(byName.get('wait_for_link')!.description!, /BLOCKS until/);
  t.deepEqual(byName.get('delete_inbox')!.inputSchema.required, ['inbox_id']);
  t.true(byName.get('delete_inbox')!.annotations?.destructiveHint);
  t.true(byName.get('read_latest_message')!.annotations?.readOnlyHint);
  t.like(input('read_latest_message', 'reveal'), { type: 'boolean', default: false });
});

test('mcp: with a key lacking secrets:read, wait_for_code and read_latest_message answer masked, and say why', async (t) => {
  const connected = await connectStdio(masked);
  t.teardown(() => connected.close());
  const inbox = await createInbox(t, connected);
  await sendMail(host, { to: inbox.email, subject: 'Verify', text: `Your verification code is ${CODE}.` });
  const got = await call(connected.client, 'wait_for_code', { inbox_id: inbox.id, timeout_seconds: 20 });
  t.falsy(got.isError, textOf(got));
  t.like(got.structuredContent, { code: null, redacted_code: MASKED_CODE, revealed: false });
  t.regex(String((got.structuredContent as { note?: string }).note), /secrets:read/);
  const read = await call(connected.client, 'read_latest_message', { inbox_id: inbox.id, reveal: true });
  t.like(read.structuredContent, { revealed: false });
  t.false(JSON.stringify(read).includes(CODE));
  t.regex(textOf(read), /secrets:read/);
});

test('mcp (Streamable HTTP): wait_for_link blocks until the magic link arrives and answers it with its kind', async (t) => {
  const connected = await connectHttp(revealing);
  t.teardown(() => connected.close());
  const inbox = await createInbox(t, connected);
  const waiting = call(connected.client, 'wait_for_link', { inbox_id: inbox.id, timeout_seconds: 30 });
  await sendMail(host, { to: inbox.email, subject: 'Verify your email', html: `<p>Confirm your address: <a href="${LINK}">Verify email</a></p>` });
  const got = await waiting;
  t.falsy(got.isError, textOf(got));
  t.like(got.structuredContent, { link: LINK, redacted_link: 'https://app.example.com/•••', revealed: true, link_kind: 'verify_email' });
  const read = await call(connected.client, 'read_latest_message', { inbox_id: inbox.id });
  t.regex(textOf(read), /Verify email \(https:\/\/app\.example\.com\/•••\)/, 'an HTML body reads as text with its links kept, masked');
  const first = (got.structuredContent as { extraction_id: string }).extraction_id;
  const newer = await call(connected.client, 'wait_for_link', { inbox_id: inbox.id, timeout_seconds: 1, after_extraction_id: first });
  t.true(newer.isError);
  t.regex(textOf(newer), /^wait_timeout: no link arrived in inbox ident_\S+ within 1 s/);
});

test('mcp: after a code mail and then a link mail, wait_for_code answers the code at once and wait_for_link the link', async (t) => {
  const connected = await connectStdio(revealing);
  t.teardown(() => connected.close());
  const inbox = await createInbox(t, connected);
  await sendMail(host, { to: inbox.email, subject: 'Your sign-in code', text: `Your verification code is ${CODE}.` });
  await sendMail(host, { to: inbox.email, subject: 'Verify your email', html: `<p>Confirm your address: <a href="${LINK}">Verify email</a></p>` });
  const link = await call(connected.client, 'wait_for_link', { inbox_id: inbox.id, timeout_seconds: 20 });
  t.like(link.structuredContent, { link: LINK, link_kind: 'verify_email' });
  // Before reads by type, this stepped past the link and timed out advising to check the address.
  const code = await call(connected.client, 'wait_for_code', { inbox_id: inbox.id, timeout_seconds: 5 });
  t.falsy(code.isError, textOf(code));
  t.like(code.structuredContent, { code: CODE, revealed: true });
});

test('mcp: one mail holding a code and a link answers wait_for_code and wait_for_link with what the API serves by type', async (t) => {
  const connected = await connectStdio(revealing);
  t.teardown(() => connected.close());
  const inbox = await createInbox(t, connected);
  const html = `<p>Your sign-in code is <b>${CODE}</b>.</p><p>Or <a href="${LINK}">sign in with one click</a>.</p>`;
  await sendMail(host, { to: inbox.email, subject: 'Sign in to App', text: `Your sign-in code is ${CODE}.\nOr sign in with this link: ${LINK}`, html });
  const code = await call(connected.client, 'wait_for_code', { inbox_id: inbox.id, timeout_seconds: 2 });
  const link = await call(connected.client, 'wait_for_link', { inbox_id: inbox.id, timeout_seconds: 2 });
  // Whether the runner-up is sure enough is the engine's call; each answer is either the secret or an accurate timeout.
  for (const [got, field, value] of [[code, 'code', CODE], [link, 'link', LINK]] as const) {
    if (got.isError) t.regex(textOf(got), /^wait_timeout: .* It holds 1 message, the latest from no-reply@app\.example\.com \("Sign in to App"/);
    else t.like(got.structuredContent, { [field]: value, message_id: (code.structuredContent ?? link.structuredContent)!.message_id });
  }
  t.false(Boolean(code.isError) && Boolean(link.isError), 'the mail answers at least the type of its winner');
});

test('mcp: a timeout on an inbox that got mail without a code says so and points at read_latest_message, not at the address', async (t) => {
  const connected = await connectStdio(revealing);
  t.teardown(() => connected.close());
  const inbox = await createInbox(t, connected);
  await sendMail(host, { to: inbox.email, subject: 'Welcome aboard', text: 'Thanks for signing up. We are glad to have you.' });
  const waited = await call(connected.client, 'wait_for_code', { inbox_id: inbox.id, timeout_seconds: 1 });
  t.true(waited.isError);
  t.regex(textOf(waited), /^wait_timeout: no code arrived in inbox \S+ within 1 s\. It holds 1 message, the latest from no-reply@app\.example\.com \("Welcome aboard", .*read_latest_message/);
});

test('mcp: read_latest_message on an inbox without mail answers message null, not an error', async (t) => {
  const connected = await connectStdio(revealing);
  t.teardown(() => connected.close());
  const inbox = await createInbox(t, connected);
  const read = await call(connected.client, 'read_latest_message', { inbox_id: inbox.id });
  t.falsy(read.isError, textOf(read));
  t.deepEqual(read.structuredContent, { inbox_id: inbox.id, message: null, revealed: false });
  t.regex(textOf(read), /no messages yet.*wait_for_code/);
});

test('mcp (Streamable HTTP): a long wait streams progress notifications to a caller that asked for them', async (t) => {
  const connected = await connectHttp(revealing);
  t.teardown(() => connected.close());
  const inbox = await createInbox(t, connected);
  const progress: { progress: number; total?: number; message?: string }[] = [];
  const args = { inbox_id: inbox.id, timeout_seconds: 7 };
  const waited = (await connected.client.callTool({ name: 'wait_for_code', arguments: args }, undefined, { onprogress: (p) => progress.push(p) })) as CallToolResult;
  t.true(waited.isError);
  t.regex(textOf(waited), /^wait_timeout/);
  t.true(progress.length >= 1, 'at least one progress report in 7 s');
  t.like(progress[0], { total: 7 });
  t.regex(String(progress[0]!.message), /^waiting for a code \(\d+ s\)$/);
});

test('mcp (stdio): stdout carries only JSON-RPC, and the server exits 0 when the client closes stdin', async (t) => {
  const child = spawn(process.execPath, [...SOURCE_NODE_ARGS, CLI, 'mcp'], { cwd: repoRoot, env: { ...process.env, ...masked }, stdio: ['pipe', 'pipe', 'pipe'] });
  t.teardown(() => child.kill('SIGKILL'));
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  child.stdin.write(`${JSON.stringify(initialize)}\n`);
  for (let i = 0; i < 600 && !stdout.includes('\n'); i += 1) await new Promise((r) => setTimeout(r, 50));
  child.stdin.end();
  t.is(await exited, 0);
  const lines = stdout.split('\n').filter((line) => line.length > 0);
  t.is(lines.length, 1, stdout);
  t.like(JSON.parse(lines[0]!), { jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'ephemail' } } });
});
