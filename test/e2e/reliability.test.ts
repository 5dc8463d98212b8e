import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import nodemailer from 'nodemailer';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { freePort, tempDir } from './support.js';

// Reliability runs against a small target app on loopback that mails the MX (or does not).

const ORG = 'org_rel';
const PROJECT = 'proj_rel';

const startTarget = async (smtpPort: () => number) => {
  const seen: { path: string; body: string; headers: Record<string, unknown> }[] = [];
  const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort(), secure: false, ignoreTLS: true });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ path: req.url ?? '', body, headers: req.headers });
      const to = req.url === '/form' ? decodeURIComponent(/user%5Bemail%5D=([^&]*)/.exec(body)?.[1] ?? '') : (JSON.parse(body) as { email: string }).email;
      const mailer = transport();
      try {
        if (req.url === '/reset' || req.url === '/form') {
          await mailer.sendMail({ from: 'no-reply@app.example.com', to, subject: 'Reset your password', text: 'Your password reset code is 284613. It expires in 10 minutes.' });
        } else if (req.url === '/invite') {
          await mailer.sendMail({ from: 'team@app.example.com', to, subject: 'You are invited', html: '<p>Join the team: <a href="https://app.example.com/invite/accept?token=Zq81kLm02PxT7vW4">Accept invitation</a></p>' });
        } else if (req.url === '/nosecret') {
          await mailer.sendMail({ from: 'no-reply@app.example.com', to, subject: 'Hello', text: 'Thanks for stopping by.' });
        } else if (req.url === '/broken') {
          res.writeHead(500).end('{}');
          return;
        }
        res.writeHead(200).end('{}');
      } finally {
        mailer.close();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
};

const keyFor = async (host: RunningHost, scopes: string[], org = ORG, project = PROJECT) => {
  const created = await host.ephemail.auth.createApiKey({ orgId: org, projectIds: [project], scopes });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  return { key: created.right.key, org, project };
};

type Key = Awaited<ReturnType<typeof keyFor>>;

const callOf = (host: RunningHost) => async (key: Key, method: string, path: string, body?: unknown) => {
  const headers: Record<string, string> = { authorization: `Bearer ${key.key}`, 'x-org-id': key.org, 'x-project-id': key.project };
  if (method !== 'GET') Object.assign(headers, { 'idempotency-key': randomUUID(), 'content-type': 'application/json' });
  const res = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, json: text === '' ? undefined : (JSON.parse(text) as any) };
};

const finished = async (call: ReturnType<typeof callOf>, key: Key, id: string, seconds = 60) => {
  for (let i = 0; i < seconds * 20; i += 1) {
    const run = await call(key, 'GET', `/v1/reliability/${id}`);
    if (!['pending', 'email_received'].includes(run.json.status)) return run.json;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${id} did not finish`);
};

let host: RunningHost;
let target: Awaited<ReturnType<typeof startTarget>>;
let writer: Key;
let call: ReturnType<typeof callOf>;
test.before(async () => {
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'rel.test', RELIABILITY_INTERVAL_MS: '200' }));
  target = await startTarget(() => host.smtpPort!);
  writer = await keyFor(host, ['identities:read', 'identities:write', 'reliability:write']);
  call = callOf(host);
});
test.after.always(async () => {
  await target.close();
  await host.close();
});

const identity = async () => (await call(writer, 'POST', '/v1/identities', { label: 'rel' })).json as { id: string; email: string };

test('reliability: a password-reset run triggers the target with the address, completes on its mail, and shows the code only through /secret', async (t) => {
  const who = await identity();
  const created = await call(writer, 'POST', '/v1/reliability/password-reset', { target_url: `${target.base}/reset`, identity_id: who.id, timeout_seconds: 30 });
  t.is(created.status, 201, created.text);
  t.like(created.json, { flow_type: 'password_reset', status: 'pending', identity_id: who.id, target_url: `${target.base}/reset` });
  t.regex(created.json.id, /^run_/);
  const run = await finished(call, writer, created.json.id);
  t.is(run.status, 'completed', JSON.stringify(run));
  t.like(run.result, { extraction_type: 'otp', has_secret: true, redacted_value: '2•••3', secret_retrieval_available: true });
  t.true(run.result.delivery_time_ms >= 0 && run.result.delivery_time_ms < 10_000);
  t.true(run.result.confidence >= 0.5);
  t.false(JSON.stringify(run).includes('284613'));
  t.deepEqual(JSON.parse(target.seen.find((s) => s.body.includes(who.email))!.body), { email: who.email });
  t.is((await call(writer, 'GET', `/v1/reliability/${run.id}/secret`)).status, 403);
  const secret = await call(await keyFor(host, ['secrets:read']), 'GET', `/v1/reliability/${run.id}/secret`);
  t.is(secret.status, 200);
  t.like(secret.json, { run_id: run.id, type: 'otp', value: '284613' });
  t.is(secret.headers.get('cache-control'), 'no-store, max-age=0');
  const reader = await keyFor(host, ['identities:read']);
  t.is((await call(reader, 'GET', `/v1/reliability/${run.id}`)).json.status, 'completed', 'identities:read may read a run');
  t.is((await call(await keyFor(host, ['webhooks:read']), 'GET', `/v1/reliability/${run.id}`)).status, 403);
});

test('reliability: an invite run completes on the invitation link', async (t) => {
  const who = await identity();
  const created = await call(writer, 'POST', '/v1/reliability/invite', { target_url: `${target.base}/invite`, identity_id: who.id });
  const run = await finished(call, writer, created.json.id);
  t.like(run, { flow_type: 'invite', status: 'completed' });
  t.like(run.result, { extraction_type: 'magic_link', redacted_value: 'https://app.example.com/•••' });
  t.false(JSON.stringify(run).includes('Zq81kLm02PxT7vW4'));
});

test('reliability: a form that needs other fields gets its body template and headers; header values are never shown', async (t) => {
  const who = await identity();
  const created = await call(writer, 'POST', '/v1/reliability/password-reset', {
    target_url: `${target.base}/form`,
    identity_id: who.id,
    request: { headers: { 'X-Api-Token': 'tok-secret-123' }, body_template: 'user%5Bemail%5D={{email}}&commit=Send', content_type: 'application/x-www-form-urlencoded' },
  });
  t.is(created.status, 201, created.text);
  t.false(created.text.includes('tok-secret-123'));
  const run = await finished(call, writer, created.json.id);
  t.is(run.status, 'completed');
  t.deepEqual(run.request, { header_names: ['x-api-token'], body_template: true, content_type: 'application/x-www-form-urlencoded' });
  t.false(JSON.stringify(run).includes('tok-secret-123'));
  const sent = target.seen.find((s) => s.body.includes(who.email))!;
  t.is(sent.body, `user%5Bemail%5D=${who.email}&commit=Send`);
  t.is(sent.headers['x-api-token'], 'tok-secret-123');
  t.is(sent.headers['content-type'], 'application/x-www-form-urlencoded');
});

test('reliability: a target that answers 500, one where nothing listens, and mail without a secret end failed with the reason', async (t) => {
  const closedPort = await freePort();
  const cases = [
    [`${target.base}/broken`, /answered 500/],
    [`http://127.0.0.1:${closedPort}/reset`, /could not be reached/],
    [`${target.base}/nosecret`, /no code or link/],
  ] as const;
  for (const [url, reason] of cases) {
    const who = await identity();
    const created = await call(writer, 'POST', '/v1/reliability/password-reset', { target_url: url, identity_id: who.id });
    const run = await finished(call, writer, created.json.id);
    t.is(run.status, 'failed', url);
    t.regex(run.failure_reason, reason, url);
    t.is(run.result, null);
  }
});

test('reliability: a target that never mails times out after timeout_seconds, which may be as short as 1 s', async (t) => {
  const who = await identity();
  const created = await call(writer, 'POST', '/v1/reliability/password-reset', { target_url: `${target.base}/silent`, identity_id: who.id, timeout_seconds: 1 });
  t.is(created.status, 201);
  const run = await finished(call, writer, created.json.id, 20);
  t.is(run.status, 'timeout');
  t.is(run.target_status, 200);
  t.true(Date.parse(run.deadline_at) - Date.parse(run.triggered_at) <= 1_000);
});

test('reliability: bad input, a squashed or unknown identity, and another tenant are refused', async (t) => {
  const who = await identity();
  for (const timeout of [0, 3601, 1.5]) {
    const bad = await call(writer, 'POST', '/v1/reliability/password-reset', { target_url: 'https://:@app.example.com/', identity_id: who.id, timeout_seconds: timeout });
    t.is(bad.status, 400);
    t.deepEqual(bad.json.error.details.issues.map((i: { path: string }) => i.path), ['body.timeout_seconds'], String(timeout));
  }
  t.is((await call(writer, 'POST', '/v1/reliability/password-reset', { target_url: 'https://:@app.example.com/', identity_id: who.id })).json.error.details.issues[0].path, 'body.target_url');
  t.is((await call(writer, 'POST', '/v1/reliability/password-reset', { target_url: `${target.base}/reset`, identity_id: 'ident_nope' })).json.error.code, 'identity_not_found');
  await call(writer, 'POST', `/v1/identities/${who.id}/squash`);
  const squashed = await call(writer, 'POST', '/v1/reliability/invite', { target_url: `${target.base}/invite`, identity_id: who.id });
  t.is(squashed.status, 409);
  t.is(squashed.json.error.code, 'identity_already_squashed');
  const mine = await identity();
  const run = (await call(writer, 'POST', '/v1/reliability/password-reset', { target_url: `${target.base}/silent`, identity_id: mine.id, timeout_seconds: 10 })).json;
  const stranger = await keyFor(host, ['reliability:write', 'identities:read', 'secrets:read'], 'org_other', 'proj_other');
  for (const path of [`/v1/reliability/${run.id}`, `/v1/reliability/${run.id}/secret`]) {
    const answer = await call(stranger, 'GET', path);
    t.is(answer.status, 404);
    t.is(answer.json.error.code, 'run_not_found');
  }
});

test('reliability: a timeout fires after the host restarted, and a run is never triggered twice', async (t) => {
  const { dir, cleanup } = tempDir('ephemail-reliability');
  t.teardown(cleanup);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'rel.sqlite')}`, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'rel.test', RELIABILITY_INTERVAL_MS: '200' };
  const first = await startHost(loadConfig(env));
  const key = await keyFor(first, ['identities:read', 'identities:write', 'reliability:write'], 'org_restart', 'proj_restart');
  const who = (await callOf(first)(key, 'POST', '/v1/identities', { label: 'r' })).json;
  const created = (await callOf(first)(key, 'POST', '/v1/reliability/password-reset', { target_url: `${target.base}/silent`, identity_id: who.id, timeout_seconds: 10 })).json;
  for (let i = 0; i < 1_200 && target.seen.filter((s) => s.body.includes(who.email)).length === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
  await first.close();
  const second = await startHost(loadConfig(env));
  t.teardown(() => second.close());
  const run = await finished(callOf(second), key, created.id, 25);
  t.is(run.status, 'timeout');
  t.is(target.seen.filter((s) => s.body.includes(who.email)).length, 1, 'triggered once across both hosts');
});
