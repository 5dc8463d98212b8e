import { randomUUID } from 'node:crypto';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';

const CODE = '904817';
const message = (to: string) =>
  Buffer.from(
    [
      'From: Example <no-reply@app.example.com>',
      `To: ${to}`,
      'Subject: Confirm your sign-in',
      `Message-ID: <${randomUUID()}@app.example.com>`,
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      `<p>Your one-time code is <b>${CODE}</b>.</p><p><a href="https://app.example.com/help">Help</a></p>`,
      '',
    ].join('\r\n'),
  );

const setup = async () => {
  const host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'mx.test' }));
  const keyFor = async (scopes: string[]) => {
    const created = await host.ephemail.auth.createApiKey({ orgId: 'org_dev', projectIds: ['proj_dev'], scopes });
    if (E.isLeft(created)) throw new Error(created.left._tag);
    return created.right.key;
  };
  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'x-org-id': 'org_dev', 'x-project-id': 'proj_dev' };
    if (method !== 'GET') Object.assign(headers, { 'idempotency-key': randomUUID(), 'content-type': 'application/json' });
    const res = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const type = res.headers.get('content-type') ?? '';
    return { status: res.status, headers: res.headers, json: type.includes('json') ? ((await res.json()) as any) : undefined, text: type.includes('json') ? '' : await res.text() };
  };
  return { host, keyFor, call };
};

let env: Awaited<ReturnType<typeof setup>>;
let host: RunningHost;
test.before(async () => {
  env = await setup();
  host = env.host;
});
test.after.always(() => host.close());

test('mail api: extractions/latest is redacted by default and raw only with secrets:read', async (t) => {
  const reader = await env.keyFor(['identities:read', 'identities:write']);
  const revealer = await env.keyFor(['identities:read', 'secrets:read']);
  const identity = (await env.call(reader, 'POST', '/v1/identities', { label: 'mail' })).json;
  t.is((await env.call(reader, 'GET', `/v1/identities/${identity.id}/extractions/latest`)).json.error.code, 'extraction_not_found');
  await host.ephemail.mail.ingress.deliver(message(identity.email), { transport: 'smtp', mailFrom: 'b@app.example.com', rcptTo: [identity.email] });
  const redacted = await env.call(reader, 'GET', `/v1/identities/${identity.id}/extractions/latest`);
  t.like(redacted.json, { type: 'otp', has_secret: true, redacted_value: '9•••7' });
  t.false(JSON.stringify(redacted.json).includes(CODE));
  t.is((await env.call(reader, 'GET', `/v1/identities/${identity.id}/extractions/latest?reveal=true`)).json.error.code, 'forbidden');
  const revealed = await env.call(revealer, 'GET', `/v1/identities/${identity.id}/extractions/latest?reveal=true`);
  t.is(revealed.json.value, CODE);
  t.is(revealed.headers.get('cache-control'), 'no-store, max-age=0');
  t.is((await env.call(reader, 'GET', `/v1/identities/${identity.id}`)).json.status, 'active');
});

test('mail api: a long-poll is answered when the mail arrives', async (t) => {
  const key = await env.keyFor(['identities:read', 'identities:write']);
  const identity = (await env.call(key, 'POST', '/v1/identities', { label: 'poll' })).json;
  const polling = env.call(key, 'GET', `/v1/identities/${identity.id}/extractions/latest?wait=20`);
  const eventPolling = env.call(key, 'GET', `/v1/identities/${identity.id}/events/latest?wait=20&after=__none__`);
  await new Promise((r) => setTimeout(r, 150));
  await host.ephemail.mail.ingress.deliver(message(identity.email), { transport: 'smtp', mailFrom: null, rcptTo: [identity.email] });
  const answered = await polling;
  t.is(answered.status, 200);
  t.is(answered.json.redacted_value, '9•••7');
  t.truthy((await eventPolling).json.type);
  const bad = await env.call(key, 'GET', `/v1/identities/${identity.id}/extractions/latest?wait=61`);
  t.is(bad.json.error.code, 'invalid_request');
});

test('mail api: messages list, detail and raw (raw needs secrets:read)', async (t) => {
  const writer = await env.keyFor(['identities:read', 'identities:write']);
  const identity = (await env.call(writer, 'POST', '/v1/identities', { label: 'msgs' })).json;
  const bytes = message(identity.email);
  const [outcome] = await host.ephemail.mail.ingress.deliver(bytes, { transport: 'smtp', mailFrom: 'b@app.example.com', rcptTo: [identity.email] });
  const list = await env.call(writer, 'GET', `/v1/identities/${identity.id}/messages`);
  t.is(list.json.total, 1);
  t.is(list.json.items[0].subject, 'Confirm your sign-in');
  const id = list.json.items[0].id;
  t.is(id, outcome && outcome.kind === 'stored' ? outcome.messageId : undefined);
  const detail = await env.call(writer, 'GET', `/v1/identities/${identity.id}/messages/${id}`);
  t.is(detail.json.from.address, 'no-reply@app.example.com');
  t.regex(detail.json.html, /one-time code/);
  t.is((await env.call(writer, 'GET', `/v1/identities/${identity.id}/messages/${id}/raw`)).json.error.code, 'forbidden');
  const secret = await env.keyFor(['identities:read', 'secrets:read']);
  const rawAnswer = await env.call(secret, 'GET', `/v1/identities/${identity.id}/messages/${id}/raw`);
  t.is(rawAnswer.headers.get('content-type'), 'message/rfc822');
  t.is(rawAnswer.text, bytes.toString('utf8'));
  t.is((await env.call(writer, 'GET', `/v1/identities/${identity.id}/messages/msg_nope`)).json.error.code, 'message_not_found');
});

test('mail api: message_id is the msg_ id everywhere; the header is rfc_message_id', async (t) => {
  const writer = await env.keyFor(['identities:read', 'identities:write']);
  const identity = (await env.call(writer, 'POST', '/v1/identities', { label: 'ids' })).json;
  const headerId = `<${randomUUID()}@app.example.com>`;
  const bytes = Buffer.from(message(identity.email).toString('utf8').replace(/^Message-ID: .*$/m, `Message-ID: ${headerId}`));
  await host.ephemail.mail.ingress.deliver(bytes, { transport: 'smtp', mailFrom: 'b@app.example.com', rcptTo: [identity.email] });
  const id = (await env.call(writer, 'GET', `/v1/identities/${identity.id}/messages`)).json.items[0].id as string;
  const detail = (await env.call(writer, 'GET', `/v1/identities/${identity.id}/messages/${id}`)).json;
  t.is(detail.message_id, id);
  t.regex(detail.message_id, /^msg_/);
  t.is(detail.rfc_message_id, headerId);
  const extraction = (await env.call(writer, 'GET', `/v1/identities/${identity.id}/extractions/latest`)).json;
  t.is(extraction.message_id, id);
  const events = (await env.call(writer, 'GET', `/v1/identities/${identity.id}/events`)).json.items;
  t.true(events.filter((e: any) => e.type === 'email.received' || e.type === 'extraction.completed').every((e: any) => e.data.message_id === id));
});

test('mail api: with checks off, authentication is still there, every result not_checked', async (t) => {
  const writer = await env.keyFor(['identities:read', 'identities:write']);
  const identity = (await env.call(writer, 'POST', '/v1/identities', { label: 'auth' })).json;
  await host.ephemail.mail.ingress.deliver(message(identity.email), { transport: 'smtp', mailFrom: 'b@app.example.com', rcptTo: [identity.email] });
  const id = (await env.call(writer, 'GET', `/v1/identities/${identity.id}/messages`)).json.items[0].id as string;
  const detail = (await env.call(writer, 'GET', `/v1/identities/${identity.id}/messages/${id}`)).json;
  t.deepEqual(detail.authentication, {
    checked: false,
    spf: { result: 'not_checked', domain: null },
    dkim: { result: 'not_checked', aligned: false, signatures: [] },
    dmarc: { result: 'not_checked', domain: null, policy: null },
  });
});

test('mail api: a long-poll that times out with an extraction in hand says nothing newer arrived', async (t) => {
  const key = await env.keyFor(['identities:read', 'identities:write']);
  const identity = (await env.call(key, 'POST', '/v1/identities', { label: 'newer' })).json;
  const none = await env.call(key, 'GET', `/v1/identities/${identity.id}/extractions/latest?wait=1`);
  t.is(none.json.error.message, 'No extraction for this identity yet.');
  await host.ephemail.mail.ingress.deliver(message(identity.email), { transport: 'smtp', mailFrom: null, rcptTo: [identity.email] });
  const latest = (await env.call(key, 'GET', `/v1/identities/${identity.id}/extractions/latest`)).json;
  const timedOut = await env.call(key, 'GET', `/v1/identities/${identity.id}/extractions/latest?wait=1&after=${latest.id}`);
  t.is(timedOut.status, 404);
  t.is(timedOut.json.error.code, 'extraction_not_found');
  t.is(timedOut.json.error.message, `No extraction newer than ${latest.id} arrived within 1 s; the latest is still ${latest.id}.`);
  const lastEvent = (await env.call(key, 'GET', `/v1/identities/${identity.id}/events/latest`)).json;
  const eventTimedOut = await env.call(key, 'GET', `/v1/identities/${identity.id}/events/latest?wait=1&after=${lastEvent.id}`);
  t.is(eventTimedOut.json.error.code, 'event_not_found');
  t.regex(eventTimedOut.json.error.message, /^No event newer than evt_/);
});
