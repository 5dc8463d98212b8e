import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import test from 'ava';
import nodemailer from 'nodemailer';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';

// The anonymous free tier over real sockets: each client address is a different loopback
// address (127.0.0.x), so the host sees distinct clients, as TESTING.md describes.

let host: RunningHost;
test.before(async () => {
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'free.test', FREE_GRANT_SECRET: `s${'e'.repeat(40)}` }));
});
test.after.always(() => host.close());

let nextAddress = 10;
const freshAddress = (): string => `127.0.0.${(nextAddress += 1)}`;

const send = (from: string, method: string, path: string, options: { body?: unknown; grant?: string } = {}) =>
  new Promise<{ status: number; headers: Record<string, unknown>; json: any }>((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      {
        host: '127.0.0.1', port: host.port, path, method, localAddress: from,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(options.grant === undefined ? {} : { 'x-anon-grant': options.grant }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

const grant = () => host.ephemail.free.mintGrant().grant;

test('free tier: a grant makes one identity per address; its token reads it and, once mail came, its code, redacted', async (t) => {
  const ip = freshAddress();
  t.is((await send(ip, 'POST', '/v1/free/identity', { body: { label: 'try' } })).json.error.code, 'unauthorized', 'no grant');
  const created = await send(ip, 'POST', '/v1/free/identity', { body: { label: 'try' }, grant: grant() });
  t.is(created.status, 201, JSON.stringify(created.json));
  t.like(created.json, { label: 'try', status: 'provisioned' });
  t.regex(created.json.id, /^free_/);
  t.regex(created.json.token, /^ftok_[A-Za-z0-9]{40}$/);
  t.true(created.json.email.endsWith('@free.test'));
  t.is(Date.parse(created.json.expires_at) - Date.now() > 23.9 * 3_600_000, true);
  const { id, token, email } = created.json;
  t.is((await send(ip, 'POST', '/v1/free/identity', { body: {}, grant: grant() })).json.error.code, 'ip_limit_reached');

  const read = await send(ip, 'GET', `/v1/free/identity/${id}?token=${token}`);
  t.deepEqual(Object.keys(read.json).sort(), ['email', 'expires_at', 'id', 'label', 'status']);
  t.is((await send(ip, 'GET', `/v1/free/identity/${id}?token=ftok_wrong`)).json.error.code, 'invalid_token');
  t.is((await send(ip, 'GET', `/v1/free/identity/free_nope?token=${token}`)).json.error.code, 'identity_not_found');
  const pending = await send(ip, 'GET', `/v1/free/identity/${id}/extraction?token=${token}`);
  t.is(pending.status, 202);
  t.deepEqual(pending.json, { status: 'pending', retryAfterSeconds: 2 });

  const mailer = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  await mailer.sendMail({ from: 'no-reply@app.example.com', to: email, subject: 'Your code', text: 'Your verification code is 639214.' });
  mailer.close();
  const ready = await send(ip, 'GET', `/v1/free/identity/${id}/extraction?token=${token}`);
  t.is(ready.status, 200);
  t.like(ready.json, { status: 'ready', type: 'otp', has_secret: true, redacted_value: '6•••4' });
  t.false(JSON.stringify(ready.json).includes('639214'));
});

test('free tier: grants are one-time, signed and bound; concurrent creations from one address make one identity', async (t) => {
  const used = grant();
  t.is((await send(freshAddress(), 'POST', '/v1/free/identity', { body: {}, grant: used })).status, 201);
  const replay = await send(freshAddress(), 'POST', '/v1/free/identity', { body: {}, grant: used });
  t.is(replay.status, 409);
  t.is(replay.json.error.code, 'grant_replayed');
  const forged = `${used.slice(0, -3)}${used.endsWith('AAA') ? 'BBB' : 'AAA'}`;
  t.is((await send(freshAddress(), 'POST', '/v1/free/identity', { body: {}, grant: forged })).json.error.code, 'forbidden');
  const short = host.ephemail.free.mintGrant(1).grant;
  await new Promise((r) => setTimeout(r, 10));
  t.is((await send(freshAddress(), 'POST', '/v1/free/identity', { body: {}, grant: short })).json.error.code, 'grant_expired');

  const ip = freshAddress();
  const raced = await Promise.all(Array.from({ length: 5 }, () => send(ip, 'POST', '/v1/free/identity', { body: {}, grant: grant() })));
  t.is(raced.filter((r) => r.status === 201).length, 1);
  t.true(raced.filter((r) => r.status !== 201).every((r) => r.status === 429 && r.json.error.code === 'ip_limit_reached'));
});

test('free tier: more than 10 requests a minute from one address answer 429 rate_limited with Retry-After', async (t) => {
  const ip = freshAddress();
  const answers = [];
  for (let i = 0; i < 11; i += 1) answers.push(await send(ip, 'GET', `/v1/free/identity/free_${randomUUID().slice(0, 8)}?token=ftok_x`));
  t.true(answers.slice(0, 10).every((a) => a.status === 404));
  t.is(answers[10]!.status, 429);
  t.is(answers[10]!.json.error.code, 'rate_limited');
  t.true(Number(answers[10]!.headers['retry-after']) >= 1);
  t.is((await send(freshAddress(), 'GET', `/v1/free/identity/free_x?token=ftok_x`)).status, 404, 'another address is not limited');
});
