import test, { type ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { call, connectHttp, connectStdio, textOf, type Connected } from './mcp-support.js';
import { READER_SCOPES, REVEALER_SCOPES, deliverTable, extractedOnly, holdsSecret, describeLeaks, leaksIn, type Delivered, type Leak } from './secret-views-support.js';

// The regression test for agents: `ephemail mcp` spawned from source, on stdio and on
// Streamable HTTP (whose answers come as server-sent events), run with a key holding every scope
// but `secrets:read`, reads each mail of the table; no tool's answer shows its code, even when the
// agent asks to reveal. The same server with a revealing key shows each code (the control).

const ORG = 'org_mcp_views';
const PROJECT = 'proj_mcp_views';

let host: RunningHost;
let delivered: Delivered[];
const env: Record<'reader' | 'revealer', Record<string, string>> = { reader: {}, revealer: {} };
test.before(async () => {
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'mcp-views.test' }));
  for (const [who, scopes] of [['reader', READER_SCOPES], ['revealer', REVEALER_SCOPES]] as const) {
    const created = await host.ephemail.auth.createApiKey({ orgId: ORG, projectIds: [PROJECT], scopes: [...scopes] });
    if (E.isLeft(created)) throw new Error(created.left._tag);
    env[who] = { EPHEMAIL_URL: host.url, EPHEMAIL_API_KEY: created.right.key, EPHEMAIL_ORG_ID: ORG, EPHEMAIL_PROJECT_ID: PROJECT };
  }
  delivered = await deliverTable(host, { url: host.url, org: ORG, project: PROJECT }, env.revealer.EPHEMAIL_API_KEY!);
});
test.after.always(() => host?.close());

/** What every reading tool answers about one inbox, each named by the tool and its arguments. */
const toolAnswers = async (connected: Connected, inbox: string): Promise<[string, unknown][]> => {
  const calls: [string, Record<string, unknown>][] = [
    ['read_latest_message', { inbox_id: inbox }],
    ['read_latest_message', { inbox_id: inbox, reveal: true, max_chars: 100_000 }],
    ['wait_for_code', { inbox_id: inbox, timeout_seconds: 5 }],
    // A code mail holds no link: the timeout describes the inbox's latest mail, its subject too.
    ['wait_for_link', { inbox_id: inbox, timeout_seconds: 1 }],
    ['extend_inbox', { inbox_id: inbox, hours: 1 }],
  ];
  return Promise.all(calls.map(async ([name, args]) => [`${name} ${JSON.stringify({ ...args, inbox_id: undefined })}`, await call(connected.client, name, args)] as [string, unknown]));
};

const noToolShowsACode = async (t: ExecutionContext, connected: Connected) => {
  const leaks: Leak[] = [];
  const readable = extractedOnly(delivered, t.log);
  await Promise.all(
    readable.map(async (d) => {
      for (const [view, answer] of await toolAnswers(connected, d.identity.id)) leaks.push(...leaksIn(`mcp ${view}`, answer));
      const read = await call(connected.client, 'read_latest_message', { inbox_id: d.identity.id });
      t.like(read.structuredContent, { revealed: false }, d.mail.name);
      t.regex(textOf(read), /^From: /);
    }),
  );
  leaks.push(...leaksIn('mcp list_inboxes', await call(connected.client, 'list_inboxes', { limit: 200 })));
  t.deepEqual(leaks, [], describeLeaks(leaks));
  t.deepEqual(connected.transportErrors, []);
};

test('secret views (mcp, stdio): with a key without secrets:read, no tool answer about any mail of the table shows its code', async (t) => {
  const connected = await connectStdio(env.reader);
  t.teardown(() => connected.close());
  await noToolShowsACode(t, connected);
});

test('secret views (mcp, Streamable HTTP): with a key without secrets:read, no tool answer about any mail of the table shows its code', async (t) => {
  const connected = await connectHttp(env.reader);
  t.teardown(() => connected.close());
  await noToolShowsACode(t, connected);
});

test('secret views (mcp): with a key with secrets:read, reveal shows each code of the table and wait_for_code answers it (the control)', async (t) => {
  const connected = await connectStdio(env.revealer);
  t.teardown(() => connected.close());
  await Promise.all(
    delivered.map(async (d) => {
      const read = await call(connected.client, 'read_latest_message', { inbox_id: d.identity.id, reveal: true, max_chars: 100_000 });
      t.like(read.structuredContent, { revealed: true });
      t.true(holdsSecret(textOf(read), d.mail.code), `${d.mail.name}: the revealed text shows the code`);
      const code = await call(connected.client, 'wait_for_code', { inbox_id: d.identity.id, timeout_seconds: 5 });
      t.true(holdsSecret(String((code.structuredContent as { code?: string } | undefined)?.code ?? textOf(code)), d.mail.code), `${d.mail.name}: wait_for_code answers it`);
    }),
  );
});
