import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import test from 'ava';
import { createTransport } from 'nodemailer';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { RESPONSE_SCHEMAS } from '@ephemail/http-express';
import { createLogger } from '../../hosts/api/src/logger.ts';
import { startSmtpSink, type SunkMail } from './smtp-sink.js';

// What a signed-in person reads of their own mail (GET /v1/consumer/identities/{id}/messages…),
// the session probe a page asks first (GET /v1/consumer/session), and what a notification says
// when the host sends no mail. Sign-in links go to a local SMTP sink, or, on the host without
// outbound mail, to its log, as `npm start` in development does.

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let outbox: SunkMail[] = [];
let host: RunningHost;
let quiet: RunningHost;
const logged: string[] = [];

test.before(async () => {
  sink = await startSmtpSink();
  outbox = sink.mails;
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'read.test', SMTP_OUTBOUND_URL: sink.url, MAIL_FROM: 'ephemail <no-reply@read.test>' }));
  const lines = new Writable({ write: (chunk: Buffer, _encoding, done) => void (logged.push(chunk.toString('utf8')), done()) });
  quiet = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'warn', INBOX_DOMAIN: 'quiet.test' }), { logger: createLogger('warn', lines) });
});
test.after.always(async () => {
  await host?.close();
  await quiet?.close();
  await sink?.close();
});

const post = (on: RunningHost, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${on.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** The sign-in link mailed to `email` (or logged by the host without outbound mail). */
const linkFor = async (email: string): Promise<string> => {
  const pattern = /(http:\/\/[^\s"]+\/consumer\/verify\?token=cml_[A-Za-z0-9]+)/;
  for (let i = 0; i < 200; i += 1) {
    const mail = outbox.find((m) => m.to === email)?.text.replace(/=\r\n/g, '').replace(/=3D/g, '=');
    const line = logged.find((l) => l.includes(email) && l.includes('DEVELOPMENT SIGN-IN LINK'));
    const link = pattern.exec(mail ?? line ?? '')?.[1];
    if (link !== undefined) return link;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no sign-in link for ${email}`);
};

/** A new account on `on`, signed in: its bearer and cookie headers. */
const person = async (on: RunningHost, name: string) => {
  const email = `${name}-${randomUUID().slice(0, 6)}@example.org`;
  if ((await post(on, '/v1/consumer/signup', { email })).status !== 200) throw new Error('sign-up failed');
  const token = new URL(await linkFor(email)).searchParams.get('token');
  const verified = await post(on, '/v1/consumer/verify', { token });
  const json = (await verified.json()) as { session_token: string };
  return { email, bearer: { authorization: `Bearer ${json.session_token}` }, cookie: { cookie: (verified.headers.get('set-cookie') ?? '').split(';')[0]! } };
};

const mail = async (on: RunningHost, to: string, message: { subject: string; text: string; html?: string }) => {
  const mailer = createTransport({ host: '127.0.0.1', port: on.smtpPort, secure: false, ignoreTLS: true });
  await mailer.sendMail({ from: 'Shop <no-reply@shop.example.com>', to, ...message });
  mailer.close();
};

const json = async (res: Response) => (await res.json()) as any;

/** The identity's messages once `count` have arrived. */
const messagesOf = async (on: RunningHost, identityId: string, headers: Record<string, string>, count = 1) => {
  for (let i = 0; i < 200; i += 1) {
    const page = await json(await fetch(`${on.url}/v1/consumer/identities/${identityId}/messages`, { headers }));
    if (page.items?.length >= count) return page;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no message for ${identityId}`);
};

test("consumer messages: a person reads their identity's mail with codes masked, sees them raw only with reveal=true, and another person gets 404", async (t) => {
  const owner = await person(host, 'reader');
  const identity = await json(await post(host, '/v1/consumer/identities', { label: 'shop' }, owner.bearer));
  await mail(host, identity.email, {
    subject: 'Your code 520741',
    text: 'Your login code is 520741.',
    html: '<p style="color:#c00">Your login code is <b>520741</b>.</p><img src="http://tracker.example.com/t.png">',
  });

  const page = await messagesOf(host, identity.id, owner.cookie);
  t.like(page, { total: 1, limit: 20, offset: 0 });
  const [summary] = page.items;
  t.like(summary, { identity_id: identity.id, from: { address: 'no-reply@shop.example.com', name: 'Shop' } });
  t.false(summary.subject.includes('520741'), 'the list masks the code in the subject');

  const url = `${host.url}/v1/consumer/identities/${identity.id}/messages/${summary.id}`;
  const masked = await fetch(url, { headers: owner.cookie });
  t.is(masked.status, 200);
  t.is(masked.headers.get('cache-control'), 'no-store, max-age=0');
  const view = await json(masked);
  t.like(view, { id: summary.id, identity_id: identity.id });
  t.regex(view.text, /Your login code is /);
  t.false(JSON.stringify(view).includes('520741'), 'subject, text, html and headers are masked by default');

  t.notThrows(() => RESPONSE_SCHEMAS.MessagePage.parse(page), 'the list is as the OpenAPI document says');
  t.notThrows(() => RESPONSE_SCHEMAS.Message.parse(view), 'the message is as the OpenAPI document says');
  const revealed = await json(await fetch(`${url}?reveal=true`, { headers: owner.bearer }));
  t.is(revealed.subject, 'Your code 520741');
  t.true(revealed.text.includes('520741'));
  t.true(revealed.html.includes('<b>520741</b>'));
  t.true((await json(await fetch(`${host.url}/v1/consumer/identities/${identity.id}/messages?reveal=true`, { headers: owner.bearer }))).items[0].subject.includes('520741'));

  const stranger = await person(host, 'stranger');
  for (const path of [`/v1/consumer/identities/${identity.id}/messages`, `/v1/consumer/identities/${identity.id}/messages/${summary.id}`, `/v1/consumer/identities/${identity.id}/messages/${summary.id}?reveal=true`]) {
    const answer = await fetch(`${host.url}${path}`, { headers: stranger.bearer });
    t.is(answer.status, 404, path);
    t.is((await json(answer)).error.code, 'identity_not_found');
  }
  const own = await json(await post(host, '/v1/consumer/identities', { label: 'other' }, stranger.bearer));
  const crossed = await fetch(`${host.url}/v1/consumer/identities/${own.id}/messages/${summary.id}`, { headers: stranger.bearer });
  t.is(crossed.status, 404, "another identity's message through one's own identity");
  t.is((await json(crossed)).error.code, 'message_not_found');
  t.is((await fetch(`${host.url}/v1/consumer/identities/${identity.id}/messages`)).status, 401, 'no session');
  t.is((await json(await fetch(`${url}?reveal=yes`, { headers: owner.bearer }))).error.code, 'invalid_request');
});

test('consumer session probe: 200 {signed_in: false} without a session, with an unknown one and after logout; {signed_in: true, email, plan} with one', async (t) => {
  const probe = async (headers: Record<string, string> = {}) => {
    const res = await fetch(`${host.url}/v1/consumer/session`, { headers });
    return { status: res.status, body: await json(res), cache: res.headers.get('cache-control') };
  };
  t.deepEqual(await probe(), { status: 200, body: { signed_in: false }, cache: 'no-store, max-age=0' });
  t.deepEqual((await probe({ cookie: 'service_consumer_session=cst_nothing' })).body, { signed_in: false });
  const someone = await person(host, 'prober');
  t.deepEqual((await probe(someone.cookie)).body, { signed_in: true, email: someone.email, plan: 'trial' });
  const signedIn = (await probe(someone.bearer)).body;
  t.notThrows(() => RESPONSE_SCHEMAS.ConsumerSession.parse(signedIn));
  t.deepEqual((await probe(someone.bearer)).body, { signed_in: true, email: someone.email, plan: 'trial' });
  t.is((await post(host, '/v1/consumer/logout', {}, someone.bearer)).status, 204);
  t.deepEqual((await probe(someone.cookie)).body, { signed_in: false });
});

test('consumer notifications: on a host that sends no mail, a notification does not say the code was sent anywhere', async (t) => {
  const someone = await person(quiet, 'unmailed');
  const identity = await json(await post(quiet, '/v1/consumer/identities', { label: 'dev' }, someone.bearer));
  await mail(quiet, identity.email, { subject: 'Verify', text: 'Your verification code is 884120.' });
  let list: any;
  for (let i = 0; i < 200 && !(list?.total > 0); i += 1) {
    list = await json(await fetch(`${quiet.url}/v1/consumer/notifications`, { headers: someone.bearer }));
    if (!(list.total > 0)) await new Promise((r) => setTimeout(r, 50));
  }
  t.is(list.total, 1);
  t.is(list.items[0].body, '8•••0');
  t.false(JSON.stringify(list).includes('sent to'));
});

test('consumer notifications: on a host that mails, the notification says where the code was sent', async (t) => {
  const someone = await person(host, 'mailed');
  const identity = await json(await post(host, '/v1/consumer/identities', { label: 'mailed' }, someone.bearer));
  await mail(host, identity.email, { subject: 'Verify', text: 'Your verification code is 884120.' });
  let list: any;
  for (let i = 0; i < 200 && !(list?.total > 0); i += 1) {
    list = await json(await fetch(`${host.url}/v1/consumer/notifications`, { headers: someone.bearer }));
    if (!(list.total > 0)) await new Promise((r) => setTimeout(r, 50));
  }
  t.is(list.items[0].body, `8•••0 (sent to ${someone.email})`);
});
