import { PassThrough } from 'node:stream';
import test from 'ava';
import { createLogger } from '../src/logger.js';
import { loadConfig, startHost } from '../src/index.js';

const capture = () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return { stream, text: () => text };
};

test('logging: credential and secret fields are redacted whatever the caller passes', (t) => {
  const out = capture();
  const logger = createLogger('info', out.stream);
  logger.info({ authorization: 'Bearer aid_x', token: 'ftok_1', nested: { secret: 's3', access_token: 'eat_1' }, headers: { cookie: 'c=1' }, ok: 'visible' }, 'm');
  const line = JSON.parse(out.text());
  t.is(line.authorization, '[redacted]');
  t.is(line.token, '[redacted]');
  t.is(line.nested.secret, '[redacted]');
  t.is(line.nested.access_token, '[redacted]');
  t.is(line.headers.cookie, '[redacted]');
  t.is(line.ok, 'visible');
});

test('logging: request logs of a running host never contain the credential or the body', async (t) => {
  const out = capture();
  const config = loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'info' });
  const host = await startHost(config, { logger: createLogger('info', out.stream) });
  t.teardown(() => host.close());
  if (host.bootstrap.kind !== 'created') return t.fail('expected a development key');
  const headers = {
    authorization: `Bearer ${host.bootstrap.key}`,
    'x-org-id': config.BOOTSTRAP_ORG_ID,
    'x-project-id': config.BOOTSTRAP_PROJECT_ID,
    'idempotency-key': 'log-test',
    'content-type': 'application/json',
  };
  const res = await fetch(`${host.url}/v1/identities`, { method: 'POST', headers, body: JSON.stringify({ label: 'private-label-xyz' }) });
  t.is(res.status, 201);
  await fetch(`${host.url}/v1/auth/tokens`, { method: 'POST', headers: { ...headers, 'idempotency-key': 't' }, body: JSON.stringify({ scopes: ['identities:read'] }) });
  const logs = out.text();
  t.regex(logs, /"route":"\/v1\/identities","status":201/);
  t.false(logs.includes(host.bootstrap.key.split('_')[2]!), 'no key secret in logs');
  t.false(logs.includes('private-label-xyz'), 'no body in logs');
  t.false(logs.includes('eat_'), 'no access token in logs');
});

test('logging: a host logs its SMTP start once, with the bound port', async (t) => {
  const out = capture();
  const host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'info' }), { logger: createLogger('info', out.stream) });
  t.teardown(() => host.close());
  const starts = out
    .text()
    .split('\n')
    .filter((line) => /"msg":"smtp:? listening"/.test(line));
  t.is(starts.length, 1);
  t.is(JSON.parse(starts[0]!).port, host.smtpPort);
});
