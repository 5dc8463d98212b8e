import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { tempDir } from './support.js';
import {
  MAILS, READER_SCOPES, REVEALER_SCOPES, csvRows, deliverTable, extractedOnly, holdsSecret, describeLeaks, leaksIn, request, until,
  type Delivered, type Leak, type Tenant,
} from './secret-views-support.js';

// The regression test, on the API's side: every mail of the table (each code shape, each
// way the HTML spells or splits it) delivered over SMTP to its own identity, then every view a key
// holding every scope but `secrets:read` is served (message list, message, identity, events,
// extraction, webhook bodies and their log, exports) read with an oracle that finds the code in
// any spelling. A revealing key (`secrets:read`, `reveal=true`) sees each code: the control that
// shows the oracle would see a leak.

const ORG = 'org_views';
const PROJECT = 'proj_views';
const WEBHOOK_EVENTS = ['email.received', 'extraction.completed', 'identity.provisioned', 'identity.extended', 'identity.squashed', 'identity.expired'];

const exportsDir = tempDir('ephemail-secret-views');
const received: string[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200).end('{}');
  });
});

let host: RunningHost;
let tenant: Tenant;
let reader: string;
let revealer: string;
let webhookId: string;
let delivered: Delivered[];
test.before(async () => {
  host = await startHost(
    loadConfig({
      DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'views.test',
      EXPORT_DIR: exportsDir.dir, EXPORT_SIGNING_SECRET: 'secret-views-export-signing-key-abcdefghij', EXPORT_INTERVAL_MS: '50', WEBHOOK_INTERVAL_MS: '50',
    }),
  );
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  tenant = { url: host.url, org: ORG, project: PROJECT };
  const keyOf = async (scopes: string[]) => {
    const created = await host.ephemail.auth.createApiKey({ orgId: ORG, projectIds: [PROJECT], scopes });
    if (E.isLeft(created)) throw new Error(created.left._tag);
    return created.right.key;
  };
  reader = await keyOf(READER_SCOPES);
  revealer = await keyOf(REVEALER_SCOPES);
  const hook = await request(tenant, reader, 'POST', '/v1/webhooks', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: WEBHOOK_EVENTS });
  if (hook.status !== 201) throw new Error(hook.text);
  webhookId = hook.json.id;
  delivered = await deliverTable(host, tenant, revealer);
});
test.after.always(async () => {
  receiver.close();
  await host?.close();
  exportsDir.cleanup();
});

const get = (key: string, path: string) => request(tenant, key, 'GET', path);

test('secret views: the oracle finds each code of the table in its mail, in every spelling, and not in its masked form', (t) => {
  for (const mail of MAILS) {
    const shown = [mail.text, mail.html, mail.fromName, mail.toName, mail.attachment, mail.subject.includes(mail.code) ? mail.subject : undefined];
    for (const part of shown) if (part !== undefined) t.true(holdsSecret(part, mail.code), `${mail.name}: ${part}`);
    t.false(holdsSecret(`Your code is ${mail.code[0]}•••${mail.code.at(-1)}.`, mail.code), `${mail.name}: the masked form`);
  }
  t.true(holdsSecret('&#52;&#x38;2<!-- -->9&nbsp;1&ZeroWidthSpace;3', '482913'));
  t.false(holdsSecret('4•••3 and 48 2 91', '482913'));
});

test('secret views: with secrets:read and reveal=true each code of the table is extracted and shown in its message (the control)', (t) => {
  t.is(delivered.length, MAILS.length);
  for (const d of delivered) t.true(d.found, `${d.mail.name}: the engine extracted ${d.mail.code} (saw ${JSON.stringify(d.extracted)})`);
  return Promise.all(
    delivered.map(async (d) => {
      const revealed = await get(revealer, `/v1/identities/${d.identity.id}/messages/${d.messageId}?reveal=true`);
      t.is(revealed.status, 200);
      t.true(leaksIn('revealed message', revealed.json, [d.mail]).length > 0, `${d.mail.name}: the revealed message shows the code`);
      if (d.mail.fromName !== undefined) {
        t.true(holdsSecret(revealed.json.from.name, d.mail.code), 'From name, revealed');
        t.true(holdsSecret(revealed.json.to[0].name, d.mail.code), 'To name, revealed');
        t.true(holdsSecret(revealed.json.attachments[0].filename, d.mail.code), 'attachment name, revealed');
      }
    }),
  );
});

/** Every API view of one delivered mail for the reader, each with its name. */
const apiViews = async (d: Delivered): Promise<[string, unknown][]> => {
  const base = `/v1/identities/${d.identity.id}`;
  const paths = [
    `${base}/messages`, `${base}/messages/${d.messageId}`, base, `${base}/lineage`, `${base}/events?limit=200`, `${base}/events/latest`,
    `${base}/extractions/latest`, `${base}/extractions/latest?explain=true`, `${base}/extractions/latest?type=otp&explain=true`,
    `${base}/messages?reveal=true`, `${base}/messages/${d.messageId}?reveal=true`, `${base}/extractions/latest?reveal=true`, `${base}/messages/${d.messageId}/raw`,
  ];
  return Promise.all(paths.map(async (path) => [`GET ${path.replace(d.identity.id, '{id}').replace(d.messageId, '{msg}')}`, (await get(reader, path)).text] as [string, unknown]));
};

test('secret views: without secrets:read, the message list, the message (subject, names, headers, text, HTML, attachments), the identity, its events and its extraction show no code', async (t) => {
  const leaks: Leak[] = [];
  for (const d of extractedOnly(delivered, t.log)) {
    for (const [view, served] of await apiViews(d)) leaks.push(...leaksIn(view, served));
    const message = (await get(reader, `/v1/identities/${d.identity.id}/messages/${d.messageId}`)).json;
    t.not(message.subject, '');
    t.is(message.html_withheld, d.mail.withheld === true, `${d.mail.name}: html_withheld`);
    if (d.mail.withheld === true) t.is(message.html, '', `${d.mail.name}: a withheld HTML is empty`);
    else if (d.mail.html !== undefined) t.not(message.html, '', `${d.mail.name}: the HTML is served, masked`);
    for (const reveal of [`messages/${d.messageId}?reveal=true`, `messages/${d.messageId}/raw`, 'messages?reveal=true', 'extractions/latest?reveal=true']) {
      t.is((await get(reader, `/v1/identities/${d.identity.id}/${reveal}`)).status, 403, `${reveal} needs secrets:read`);
    }
  }
  const identities = await get(reader, '/v1/identities?limit=200');
  leaks.push(...leaksIn('GET /v1/identities', identities.text));
  t.deepEqual(leaks, [], describeLeaks(leaks));
});

test('secret views: without secrets:read, no webhook body received and no line of the delivery log shows a code', async (t) => {
  const ids = delivered.map((d) => d.identity.id);
  const bodies = await until(
    async () => [...received],
    (all) => ids.every((id) => ['email.received', 'extraction.completed'].every((type) => all.some((b) => b.includes(id) && b.includes(`"${type}"`)))),
  );
  for (const id of ids) {
    for (const type of ['email.received', 'extraction.completed']) t.true(bodies.some((b) => b.includes(id) && b.includes(`"${type}"`)), `${id}: its ${type} reached the receiver`);
  }
  const log = await get(reader, `/v1/webhooks/${webhookId}/deliveries?limit=200`);
  t.is(log.status, 200);
  const leaks = [...bodies.flatMap((b) => leaksIn('webhook body', b)), ...leaksIn(`GET /v1/webhooks/{id}/deliveries`, log.json)];
  t.deepEqual(leaks, [], describeLeaks(leaks));
});

test('secret views: without secrets:read, no export (events, extractions, identities; CSV and JSON) shows a code', async (t) => {
  const leaks: Leak[] = [];
  for (const type of ['events', 'extractions', 'identities']) {
    for (const format of ['csv', 'json']) {
      const created = await request(tenant, reader, 'POST', '/v1/exports', { type, format });
      t.is(created.status, 201, created.text);
      const ready = await until(() => get(reader, `/v1/exports/${created.json.id}`), (v) => v.json.status === 'ready' || v.json.status === 'failed');
      t.is(ready.json.status, 'ready', `${type} ${format}`);
      const file = await (await fetch(ready.json.download_url)).text();
      t.true(delivered.every((d) => file.includes(d.identity.id)), `the ${type} export holds the table's identities`);
      leaks.push(...leaksIn(`${type} export (${format})`, format === 'csv' ? csvRows(file) : file));
    }
  }
  t.deepEqual(leaks, [], describeLeaks(leaks));
});
