import { randomUUID } from 'node:crypto';
import test from 'ava';
import { startSmtpSink, type SunkMail } from './smtp-sink.js';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { RESPONSE_SCHEMAS } from '@ephemail/http-express';

// People's accounts end to end: sign-in links are mailed through SMTP_OUTBOUND_URL to a local
// SMTP sink, read from there, and used as a person would (the page's GET uses nothing up).

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let inbox: SunkMail[] = [];

let host: RunningHost;
test.before(async () => {
  sink = await startSmtpSink();
  inbox = sink.mails;
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'people.test', SMTP_OUTBOUND_URL: sink.url, MAIL_FROM: 'ephemail <no-reply@people.test>' }));
});
test.after.always(async () => {
  await host.close();
  await sink?.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const linkFor = async (email: string, after = 0): Promise<string> => {
  for (let i = 0; i < 1_200; i += 1) {
    const mail = inbox.filter((m) => m.to === email).slice(after)[0];
    const link = mail === undefined ? undefined : /(http:\/\/\S+\/consumer\/verify\?token=cml_[A-Za-z0-9]+)/.exec(mail.text.replace(/=\r\n/g, '').replace(/=3D/g, '='))?.[1];
    if (link !== undefined) return link;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no sign-in link mailed to ${email}`);
};

const signIn = async (email: string, after = 0) => {
  const link = await linkFor(email, after);
  const page = await fetch(link);
  t_assertPage(page.status, await page.text());
  const verified = await post('/v1/consumer/verify', { token: new URL(link).searchParams.get('token') });
  return { status: verified.status, json: (await verified.json()) as any, cookie: verified.headers.get('set-cookie') ?? '', link };
};
const t_assertPage = (status: number, html: string) => {
  if (status !== 200 || !html.includes('Sign in')) throw new Error(`the link's page: ${status}`);
};

test('consumer: sign up, sign in by the mailed link (the page uses nothing up), session by cookie and by bearer, identities within the limit', async (t) => {
  const email = `Person-${randomUUID().slice(0, 6)}@Example.org`;
  const signedUp = await post('/v1/consumer/signup', { email });
  t.is(signedUp.status, 200);
  t.like(await signedUp.json(), { email: email.toLowerCase() });
  t.is((await post('/v1/consumer/signup', { email })).status, 409);
  t.is(((await (await post('/v1/consumer/login', { email: 'nobody@example.org' })).json()) as any).error.code, 'consumer_not_found');

  const first = await signIn(email.toLowerCase());
  t.is(first.status, 200, JSON.stringify(first.json));
  t.like(first.json, { verified: true, accountId: first.json.consumer_id });
  t.regex(first.json.session_token, /^cst_[A-Za-z0-9]{40}$/);
  t.regex(first.cookie, /^service_consumer_session=cst_[A-Za-z0-9]{40}; Path=\/; HttpOnly; Secure; SameSite=Lax; Max-Age=2592000$/);
  const again = await post('/v1/consumer/verify', { token: new URL(first.link).searchParams.get('token') });
  t.is(((await again.json()) as any).error.code, 'invalid_magic_link', 'a link works once');

  const bearer = { authorization: `Bearer ${first.json.session_token}` };
  const cookie = { cookie: first.cookie.split(';')[0]! };
  t.is((await post('/v1/consumer/identities', { label: 'a' }, cookie)).status, 403, 'cookie mutation without X-Requested-With');
  for (const label of ['a', 'b']) t.is((await post('/v1/consumer/identities', { label }, bearer)).status, 201);
  t.is((await post('/v1/consumer/identities', { label: 'c' }, { ...cookie, 'x-requested-with': 'fetch' })).status, 201);
  const fourth = await post('/v1/consumer/identities', { label: 'd' }, bearer);
  t.is(fourth.status, 403);
  t.is(((await fourth.json()) as any).error.code, 'identity_limit_reached');
  const list = (await (await fetch(`${host.url}/v1/consumer/identities`, { headers: cookie })).json()) as any;
  t.like(list, { total: 3, limit: 20 });
  t.true(list.items.every((i: any) => i.email.endsWith('@people.test')));

  t.is((await post('/v1/consumer/logout', {}, bearer)).status, 204);
  const after = await fetch(`${host.url}/v1/consumer/identities`, { headers: bearer });
  t.is(after.status, 401);
  t.is(((await after.json()) as any).error.code, 'session_expired');
  t.is((await fetch(`${host.url}/v1/consumer/identities`)).status, 401, 'no session');
});

test('consumer: the upgrade is a sandbox checkout; paying it allows 10 identities; a second upgrade answers 409', async (t) => {
  const email = `payer-${randomUUID().slice(0, 6)}@example.org`;
  await post('/v1/consumer/signup', { email });
  const session = await signIn(email);
  const bearer = { authorization: `Bearer ${session.json.session_token}` };
  const upgrade = await post('/v1/consumer/upgrade', {}, bearer);
  t.is(upgrade.status, 200);
  const checkoutUrl = ((await upgrade.json()) as any).checkout_url as string;
  const html = await (await fetch(checkoutUrl)).text();
  const action = /action="([^"]*\/pay)"/.exec(html)?.[1];
  t.truthy(action);
  t.is((await fetch(new URL(action!, checkoutUrl), { method: 'POST' })).status, 200);
  for (let i = 0; i < 10; i += 1) t.is((await post('/v1/consumer/identities', { label: `x${i}` }, bearer)).status, 201);
  t.is((await post('/v1/consumer/identities', { label: 'x10' }, bearer)).status, 403);
  t.is(((await (await post('/v1/consumer/upgrade', {}, bearer)).json()) as any).error.code, 'already_upgraded');
});

test('consumer: sign-in links are rate-limited per address', async (t) => {
  const email = `busy-${randomUUID().slice(0, 6)}@example.org`;
  t.is((await post('/v1/consumer/signup', { email })).status, 200);
  const answers = [];
  for (let i = 0; i < 5; i += 1) answers.push((await post('/v1/consumer/login', { email })).status);
  t.deepEqual(answers, [200, 200, 200, 200, 429]);
});

/** Reads server-sent events from a stream until `until` holds or `ms` pass. */
const readEvents = async (res: Response, until: (events: { id: string; event: string; data: any }[]) => boolean, ms = 60_000) => {
  const reader = res.body!.getReader();
  const events: { id: string; event: string; data: any }[] = [];
  let buffer = '';
  const deadline = Date.now() + ms;
  while (!until(events) && Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), new Promise<{ done: true; value: undefined }>((r) => setTimeout(() => r({ done: true, value: undefined }), deadline - Date.now()))]);
    if (chunk.done) break;
    buffer += new TextDecoder().decode(chunk.value);
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name: string) => block.split('\n').find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
      if (field('event') !== undefined) events.push({ id: field('id')!, event: field('event')!, data: JSON.parse(field('data')!) });
    }
  }
  await reader.cancel();
  return events;
};

test('consumer: the inbox stream shows mail and its redacted code as it arrives, and resumes after Last-Event-ID', async (t) => {
  const email = `stream-${randomUUID().slice(0, 6)}@example.org`;
  await post('/v1/consumer/signup', { email });
  const session = await signIn(email);
  const bearer = { authorization: `Bearer ${session.json.session_token}` };
  t.is((await fetch(`${host.url}/v1/consumer/inbox`)).status, 401);
  const identity = (await (await post('/v1/consumer/identities', { label: 'live' }, bearer)).json()) as any;
  const stream = await fetch(`${host.url}/v1/consumer/inbox`, { headers: bearer });
  t.is(stream.status, 200);
  t.regex(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
  const sent = (async () => {
    await new Promise((r) => setTimeout(r, 300));
    const { createTransport } = await import('nodemailer');
    const mailer = createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
    await mailer.sendMail({ from: 'no-reply@app.example.com', to: identity.email, subject: 'Your code', text: 'Your login code is 520741.' });
    mailer.close();
  })();
  const events = await readEvents(stream, (e) => e.some((x) => x.event === 'extraction.completed'));
  await sent;
  const received = events.find((e) => e.event === 'inbound.received');
  const extracted = events.find((e) => e.event === 'extraction.completed');
  t.is(received?.data.identity_id, identity.id);
  t.like(extracted?.data, { identity_id: identity.id, type: 'otp', redacted_value: '5•••1' });
  // The data are exactly what /v1/openapi.json documents for the stream.
  t.notThrows(() => RESPONSE_SCHEMAS.InboxMessageData.parse(received?.data));
  t.notThrows(() => RESPONSE_SCHEMAS.InboxExtractionData.parse(extracted?.data));
  t.false(JSON.stringify(events).includes('520741'));
  // Reconnecting after the first event gets the rest again: nothing is lost between connections.
  const resumed = await fetch(`${host.url}/v1/consumer/inbox`, { headers: { ...bearer, 'last-event-id': received!.id } });
  const replayed = await readEvents(resumed, (e) => e.some((x) => x.event === 'extraction.completed'), 30_000);
  t.deepEqual(replayed.map((e) => e.id), [extracted!.id]);
});

test('consumer: a code for a consumer identity becomes a notification and is forwarded to the consumer\u2019s address, recorded as consumer.notification.sent', async (t) => {
  const email = `notified-${randomUUID().slice(0, 6)}@example.org`;
  await post('/v1/consumer/signup', { email });
  const session = await signIn(email);
  const bearer = { authorization: `Bearer ${session.json.session_token}` };
  const identity = (await (await post('/v1/consumer/identities', { label: 'n' }, bearer)).json()) as any;
  const { createTransport } = await import('nodemailer');
  const mailer = createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  await mailer.sendMail({ from: 'no-reply@shop.example.com', to: identity.email, subject: 'Verify', text: 'Your verification code is 884120.' });
  mailer.close();
  let list: any;
  for (let i = 0; i < 100; i += 1) {
    list = await (await fetch(`${host.url}/v1/consumer/notifications`, { headers: bearer })).json();
    if (list.total > 0 && inbox.some((m) => m.to === email && m.text.includes('884120'))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.is(list.total, 1);
  t.like(list.items[0], { type: 'extraction.completed', secret_type: 'otp', read: false, identity_id: identity.id });
  t.notThrows(() => RESPONSE_SCHEMAS.NotificationPage.parse(list));
  t.false(JSON.stringify(list).includes('884120'), 'the notification itself is redacted');
  t.true(inbox.some((m) => m.to === email && m.text.includes('884120')), 'the code was forwarded to the consumer');
  const secret = await fetch(`${host.url}/v1/consumer/identities/${identity.id}/secret`, { headers: bearer });
  t.like(await secret.json(), { type: 'otp', value: '884120' });
  t.is(secret.headers.get('cache-control'), 'no-store, max-age=0');
  const stranger = await (async () => {
    const other = `stranger-${randomUUID().slice(0, 6)}@example.org`;
    await post('/v1/consumer/signup', { email: other });
    return (await signIn(other)).json.session_token as string;
  })();
  t.is((await fetch(`${host.url}/v1/consumer/identities/${identity.id}/secret`, { headers: { authorization: `Bearer ${stranger}` } })).status, 404, "another consumer's identity");
  const read = await post(`/v1/consumer/notifications/${list.items[0].id}/read`, {}, bearer);
  t.like(await read.json(), { read: true });
  const events = await host.ephemail.events.list({ orgId: session.json.org_id, projectId: session.json.project_id, scopes: ['identities:read'], credential: { kind: 'api_key', id: 'x', keyId: 'x' } }, identity.id, { limit: 50, offset: 0 });
  t.true(E_right(events).items.some((e: any) => e.type === 'consumer.notification.sent'));
});

test('consumer: /v1/openapi.json documents the inbox stream as text/event-stream with its events, their data and Last-Event-ID', async (t) => {
  const doc = (await (await fetch(`${host.url}/v1/openapi.json`)).json()) as any;
  const inboxOp = doc.paths['/v1/consumer/inbox']?.get;
  t.truthy(inboxOp, 'GET /v1/consumer/inbox is in the document');
  t.true(inboxOp.parameters.some((p: any) => p.in === 'header' && p.name === 'Last-Event-ID'));
  const stream = inboxOp.responses['200'].content['text/event-stream'];
  t.deepEqual(stream.itemSchema.oneOf.map((f: any) => [f.properties.event.const, f.properties.data.$ref]), [
    ['inbound.received', '#/components/schemas/InboxMessageData'],
    ['extraction.completed', '#/components/schemas/InboxExtractionData'],
  ]);
  t.truthy(doc.components.schemas.InboxMessageData);
  t.truthy(doc.components.schemas.InboxExtractionData);
  t.is(doc.paths['/v1/consumer/notifications'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/NotificationPage');
});

const E_right = (e: any) => {
  if (e._tag !== 'Right') throw new Error(JSON.stringify(e));
  return e.right;
};
