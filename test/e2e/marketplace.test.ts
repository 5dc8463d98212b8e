import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import nodemailer from 'nodemailer';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { tempDir } from './support.js';

// Templates deployed through the real host: mail arrives over SMTP and the template's rules pick
// its secret; outcomes reach the template's figures through the host's relay.

let host: RunningHost;
let key: { key: string; org: string; project: string };

const call = async (method: string, path: string, body?: unknown) => {
  const headers: Record<string, string> = { authorization: `Bearer ${key.key}`, 'x-org-id': key.org, 'x-project-id': key.project };
  if (method !== 'GET') Object.assign(headers, { 'idempotency-key': randomUUID(), 'content-type': 'application/json' });
  const res = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : (JSON.parse(text) as any) };
};

const send = async (to: string, mail: { from: string; subject: string; text: string }) => {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort!, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ ...mail, to });
  } finally {
    transport.close();
  }
};

const storeMail = {
  from: 'Northwind Store <no-reply@shop.example.com>',
  subject: 'Welcome to Northwind Store',
  text: 'Welcome! Your order 582931 is confirmed.\nTo finish creating your account, enter this verification code: 44172\nSupport PIN: 918273',
};

test.before(async () => {
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'market.test', RELIABILITY_INTERVAL_MS: '100' }));
  const created = await host.ephemail.auth.createApiKey({ orgId: 'org_mkt', projectIds: ['proj_mkt'], scopes: ['identities:read', 'identities:write', 'secrets:read', 'marketplace:read', 'marketplace:deploy'] });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  key = { key: created.right.key, org: 'org_mkt', project: 'proj_mkt' };
});
test.after.always(() => host?.close());

test.serial('marketplace e2e: over SMTP, the template picks the code the generic engine misses, and the outcome moves the template’s figures', async (t) => {
  // Serial: it reads the template's shared figures, which the other test's deployments also move.
  const before = (await call('GET', '/v1/marketplace/templates/tmpl_store_signup_code_v1')).json;
  const dep = await call('POST', '/v1/marketplace/templates/tmpl_store_signup_code_v1/deploy', { parameters: { service_name: 'Northwind Store', sender_domain: 'shop.example.com', code_length: 5 } });
  t.is(dep.status, 201);
  const plain = (await call('POST', '/v1/identities', { label: 'plain' })).json;
  await send(dep.json.identity.email, storeMail);
  await send(plain.email, storeMail);
  const shaped = await call('GET', `/v1/identities/${dep.json.identity.id}/extractions/latest?wait=10&reveal=true`);
  t.is(shaped.json.value, '44172');
  const generic = await call('GET', `/v1/identities/${plain.id}/extractions/latest?wait=10&reveal=true`);
  t.is(generic.json.value, '918273');
  for (let i = 0; i < 1_200; i += 1) {
    const now = (await call('GET', '/v1/marketplace/templates/tmpl_store_signup_code_v1')).json;
    if (now.success_rate !== before.success_rate) {
      t.is(now.deploy_count, before.deploy_count + 1);
      t.true(now.success_rate > before.success_rate, 'a success raises the rate above the prior');
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  t.fail('the outcome never reached the template');
});

test('marketplace e2e: mail from a sender the template does not name is kept, not extracted from', async (t) => {
  const dep = (await call('POST', '/v1/marketplace/templates/tmpl_bitwarden_two_factor_v1/deploy', { parameters: { sender_domain: 'vault.example.com' } })).json;
  await send(dep.identity.email, { from: 'no-reply@phish.example.net', subject: 'Your Bitwarden Verification Code', text: 'Your code is 123456' });
  const messages = await call('GET', `/v1/identities/${dep.identity.id}/messages`);
  t.is(messages.json.total, 1);
  t.is((await call('GET', `/v1/identities/${dep.identity.id}/extractions/latest`)).status, 404);
  await send(dep.identity.email, { from: 'Bitwarden <no-reply@vault.example.com>', subject: 'Your Bitwarden Verification Code', text: 'Your two-step verification code is: 697737' });
  t.is((await call('GET', `/v1/identities/${dep.identity.id}/extractions/latest?wait=10&reveal=true`)).json.value, '697737');
});

test('marketplace e2e: a host refuses to start on an invalid catalogue, naming the file and the problem', async (t) => {
  const { dir, cleanup } = tempDir('catalogue');
  t.teardown(cleanup);
  mkdirSync(join(dir, 'c'));
  writeFileSync(join(dir, 'c', 'tmpl_bad_v1.json'), JSON.stringify({ id: 'tmpl_bad_v1', name: 'Bad', description: 'x', category: 'social', use_case: 'signup', version: '1.0.0', parameters: [], extraction_config: { extraction_type: 'otp', code_pattern: '(\\d+)+', poll_interval_seconds: 1, max_wait_seconds: 60 }, expected: { success_rate: 0.5, duration_seconds: 5 } }));
  const error = await t.throwsAsync(() => startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', MARKETPLACE_DIR: join(dir, 'c') })));
  t.regex(error!.message, /tmpl_bad_v1\.json: extraction_config\.code_pattern: pattern a repeated group/);
});
