import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';

// Raw secrets reach no caller without `secrets:read` + `reveal=true`: not in a subject, a body, a
// header, an event or a webhook delivery.

const mail = (to: string, subject: string, parts: { text?: string; html?: string }) =>
  Buffer.from(
    [
      'From: Acme <no-reply@acme.example.com>',
      `To: ${to}`,
      `Subject: ${subject}`,
      `Message-ID: <${randomUUID()}@acme.example.com>`,
      'MIME-Version: 1.0',
      `Content-Type: ${parts.html === undefined ? 'text/plain' : 'text/html'}; charset=utf-8`,
      '',
      parts.html ?? parts.text ?? '',
      '',
    ].join('\r\n'),
  );

let host: RunningHost;
const deliveries: string[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    deliveries.push(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200).end('{}');
  });
});

const keyFor = async (scopes: string[]) => {
  const created = await host.ephemail.auth.createApiKey({ orgId: 'org_mask', projectIds: ['proj_mask'], scopes });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  return created.right.key;
};
const call = async (key: string, method: string, path: string, body?: unknown) => {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'x-org-id': 'org_mask', 'x-project-id': 'proj_mask' };
  if (method !== 'GET') Object.assign(headers, { 'idempotency-key': randomUUID(), 'content-type': 'application/json' });
  const res = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as any };
};

let reader: string;
let revealer: string;
test.before(async () => {
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'mask.test' }));
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  reader = await keyFor(['identities:read', 'identities:write', 'webhooks:write']);
  revealer = await keyFor(['identities:read', 'secrets:read']);
  const hook = await call(reader, 'POST', '/v1/webhooks', {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    events: ['email.received', 'extraction.completed'],
  });
  if (hook.status !== 201) throw new Error(hook.text);
});
test.after.always(async () => {
  receiver.close();
  await host.close();
});

const receive = async (subject: string, parts: { text?: string; html?: string }) => {
  const identity = (await call(reader, 'POST', '/v1/identities', { label: 'mask' })).json;
  await host.ephemail.mail.ingress.deliver(mail(identity.email, subject, parts), { transport: 'smtp', mailFrom: 'b@acme.example.com', rcptTo: [identity.email] });
  const list = await call(reader, 'GET', `/v1/identities/${identity.id}/messages`);
  return { identity, list, messageId: list.json.items[0].id as string };
};

const deliveredFor = async (identityId: string, count: number): Promise<string[]> => {
  for (let i = 0; i < 2_400; i += 1) {
    const mine = deliveries.filter((d) => d.includes(identityId));
    if (mine.length >= count) return mine;
    await new Promise((r) => setTimeout(r, 25));
  }
  return deliveries.filter((d) => d.includes(identityId));
};

test('masking: a code that appears only in the subject is hidden in the list, the message, its headers, the events and the webhooks', async (t) => {
  const code = '482913';
  const { identity, list, messageId } = await receive(`${code} is your Acme verification code`, { text: 'Enter the code from the subject line to continue.' });
  t.is(list.json.items[0].subject, '4•••3 is your Acme verification code');
  t.false(list.text.includes(code));
  const detail = await call(reader, 'GET', `/v1/identities/${identity.id}/messages/${messageId}`);
  t.is(detail.json.subject, '4•••3 is your Acme verification code');
  t.false(detail.text.includes(code), 'neither the subject nor the Subject header shows it');
  const events = await call(reader, 'GET', `/v1/identities/${identity.id}/events`);
  const received = events.json.items.find((e: { type: string }) => e.type === 'email.received');
  t.is(received.data.subject, '4•••3 is your Acme verification code');
  t.false(events.text.includes(code));
  const hooks = await deliveredFor(identity.id, 2);
  t.true(hooks.some((d) => d.includes('email.received')));
  t.false(hooks.some((d) => d.includes(code)));
  const revealed = await call(revealer, 'GET', `/v1/identities/${identity.id}/messages/${messageId}?reveal=true`);
  t.is(revealed.json.subject, `${code} is your Acme verification code`);
  t.is((await call(revealer, 'GET', `/v1/identities/${identity.id}/messages?reveal=true`)).json.items[0].subject, `${code} is your Acme verification code`);
});

test('masking: a magic link that appears only in the HTML is hidden, in its escaped spelling too', async (t) => {
  const token = `tk${randomUUID().replaceAll('-', '')}`;
  const link = `https://acme.example.com/verify?token=${token}&user=42`;
  const html = `<p>Confirm your address:</p><p><a href="${link.replace('&', '&amp;')}">Verify email</a></p>`;
  const { identity, messageId } = await receive('Verify your email address', { html });
  const detail = await call(reader, 'GET', `/v1/identities/${identity.id}/messages/${messageId}`);
  t.false(detail.text.includes(token));
  t.true(detail.json.html.includes('https://acme.example.com/•••'));
  t.true(detail.json.html.includes('Verify email'), 'the rest of the body is kept');
  const revealed = await call(revealer, 'GET', `/v1/identities/${identity.id}/messages/${messageId}?reveal=true`);
  t.true(revealed.json.html.includes(token));
});

test('masking: every candidate is hidden, not only the winner, and the code split by a space too', async (t) => {
  const { identity, messageId } = await receive('Your sign-in code', {
    text: 'Your sign-in code is 731 904. If that one does not work, use the backup code 55821607.',
  });
  const detail = await call(reader, 'GET', `/v1/identities/${identity.id}/messages/${messageId}`);
  t.false(detail.json.text.includes('731 904'));
  t.false(detail.json.text.includes('55821607'));
  t.true(detail.json.text.includes('7•••4'));
});

test('masking: reveal=true needs secrets:read on the message routes', async (t) => {
  const { identity, messageId } = await receive('123987 is your code', { text: 'hello' });
  for (const path of [`/v1/identities/${identity.id}/messages/${messageId}?reveal=true`, `/v1/identities/${identity.id}/messages?reveal=true`]) {
    const refused = await call(reader, 'GET', path);
    t.is(refused.status, 403);
    t.is(refused.json.error.code, 'forbidden');
  }
});
