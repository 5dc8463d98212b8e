import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import nodemailer from 'nodemailer';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { startDnsmasq, startSilentServer, type Dnsmasq } from '../../adapters/mail-auth/test/dnsmasq.js';
import { tempDir } from './support.js';

// Custom domains against a real name server (dnsmasq): register, verify while the records are
// missing, publish them, verify, make an identity on the domain and mail it over SMTP.

const MX_HOST = 'mx.domains.test';

interface Tenant {
  readonly key: string;
  readonly orgId: string;
  readonly projectId: string;
}

const keyFor = async (host: RunningHost, scopes: string[], orgId = `org_${randomUUID().slice(0, 8)}`, plan: 'starter' | 'growth' = 'growth'): Promise<Tenant> => {
  const projectId = `proj_${orgId.slice(4)}`;
  const created = await host.ephemail.auth.createApiKey({ orgId, projectIds: [projectId], scopes, plan });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  return { key: created.right.key, orgId, projectId };
};

const callOf = (host: RunningHost) => async (tenant: Tenant, method: string, path: string, body?: unknown) => {
  const headers: Record<string, string> = { authorization: `Bearer ${tenant.key}`, 'x-org-id': tenant.orgId, 'x-project-id': tenant.projectId };
  if (method !== 'GET') Object.assign(headers, { 'idempotency-key': randomUUID(), 'content-type': 'application/json' });
  const res = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : (JSON.parse(text) as any) };
};

const ALL = ['domains:read', 'domains:write', 'identities:read', 'identities:write'];

const startWith = (dnsServer: string, databaseUrl = 'memory:') =>
  startHost(loadConfig({ DATABASE_URL: databaseUrl, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'inbox.domains.test', MX_HOST, DNS_SERVERS: dnsServer }));

test.serial('domains: register → verify fails without records → records appear → verify → identity on the domain → SMTP mail → extraction', async (t) => {
  const domain = `d${randomUUID().slice(0, 8)}.example.org`;
  let dns: Dnsmasq = await startDnsmasq({ localDomains: [domain] });
  const port = Number(dns.server.split(':')[1]);
  // On the embedded SQLite store: the same store primitives as memory and MongoDB.
  const { dir, cleanup } = tempDir('ephemail-domains');
  const host = await startWith(dns.server, `sqlite:${join(dir, 'domains.sqlite')}`);
  t.teardown(async () => {
    await host.close();
    await dns.stop();
    cleanup();
  });
  const call = callOf(host);
  const tenant = await keyFor(host, ALL);

  const registered = await call(tenant, 'POST', '/v1/domains', { domain: `${domain.toUpperCase()}.` });
  t.is(registered.status, 201);
  t.like(registered.json, { domain, status: 'pending_verification', verified_at: null });
  t.regex(registered.json.id, /^dom_/);
  const [mx, txt] = registered.json.dns_records;
  t.deepEqual(mx, { type: 'MX', host: domain, value: `10 ${MX_HOST}`, status: 'pending' });
  t.is(txt.host, `_service-verify.${domain}`);
  t.regex(txt.value, /^service-verify=[A-Za-z0-9]{32}$/);

  const failed = await call(tenant, 'POST', `/v1/domains/${registered.json.id}/verify`);
  t.is(failed.status, 422);
  t.is(failed.json.error.code, 'dns_verification_failed');
  t.deepEqual(failed.json.error.details.records.map((r: any) => [r.type, r.status, r.found]), [['MX', 'missing', []], ['TXT', 'missing', []]]);
  const early = await call(tenant, 'POST', '/v1/identities', { label: 'early', domain });
  t.is(early.status, 400);
  t.is(early.json.error.code, 'domain_not_verified');

  // The records appear: the same name server now answers them.
  await dns.stop();
  dns = await startDnsmasq({ localDomains: [domain], mx: [[domain, MX_HOST, 10]], txt: [[`_service-verify.${domain}`, txt.value]] }, port);
  const verified = await call(tenant, 'POST', `/v1/domains/${registered.json.id}/verify`);
  t.is(verified.status, 200, JSON.stringify(verified.json));
  t.is(verified.json.status, 'verified');
  t.truthy(verified.json.verified_at);
  t.true(verified.json.dns_records.every((r: any) => r.status === 'verified'));
  const listed = await call(tenant, 'GET', '/v1/domains');
  t.deepEqual(listed.json.items.map((d: any) => [d.id, d.status]), [[registered.json.id, 'verified']]);

  const identity = await call(tenant, 'POST', '/v1/identities', { label: 'custom', domain });
  t.is(identity.status, 201);
  t.true(identity.json.email.endsWith(`@${domain}`));
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  t.teardown(() => transport.close());
  await transport.sendMail({ from: 'no-reply@app.example.com', to: identity.json.email, subject: 'Your code', text: 'Your login code is 615243.' });
  const extraction = await call(tenant, 'GET', `/v1/identities/${identity.json.id}/extractions/latest?wait=10`);
  t.is(extraction.status, 200);
  t.is(extraction.json.redacted_value, '6•••3');
  await t.throwsAsync(() => transport.sendMail({ from: 'a@b.example', to: `nobody@${domain}`, subject: 'x', text: 'x' }), { message: /550/ });

  // Removed: the identity keeps its mail, no new identity, the name is free again.
  t.is((await call(tenant, 'DELETE', `/v1/domains/${registered.json.id}`)).status, 204);
  await transport.sendMail({ from: 'no-reply@app.example.com', to: identity.json.email, subject: 'Again', text: 'Your login code is 778812.' });
  const messages = await call(tenant, 'GET', `/v1/identities/${identity.json.id}/messages`);
  t.is(messages.json.total, 2);
  t.is((await call(tenant, 'POST', '/v1/identities', { label: 'late', domain })).json.error.code, 'domain_not_found');
  const other = await keyFor(host, ALL);
  t.is((await call(other, 'POST', '/v1/domains', { domain })).status, 201, 'another tenant may register it now');
});

test.serial('domains: one registration per name across tenants, race-proof; reserved, invalid and over-quota names refused; other tenants see 404', async (t) => {
  const silent = await startSilentServer();
  const host = await startWith(silent.server);
  t.teardown(async () => {
    await host.close();
    silent.socket.close();
  });
  const call = callOf(host);
  const [a, b] = await Promise.all([keyFor(host, ALL), keyFor(host, ALL)]);
  const domain = `race-${randomUUID().slice(0, 8)}.example.net`;
  const raced = await Promise.all(Array.from({ length: 8 }, (_, i) => call(i % 2 ? a : b, 'POST', '/v1/domains', { domain: i % 3 ? domain : domain.toUpperCase() })));
  t.is(raced.filter((r) => r.status === 201).length, 1);
  t.true(raced.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.json.error.code === 'domain_already_registered'));
  const winner = raced.find((r) => r.status === 201)!.json;
  const owner = (await call(a, 'GET', `/v1/domains/${winner.id}`)).status === 200 ? a : b;
  const stranger = owner === a ? b : a;
  for (const [method, path] of [['GET', `/v1/domains/${winner.id}`], ['POST', `/v1/domains/${winner.id}/verify`], ['DELETE', `/v1/domains/${winner.id}`]] as const) {
    const answer = await call(stranger, method, path);
    t.is(answer.status, 404, `${method} ${path}`);
    t.is(answer.json.error.code, 'domain_not_found');
  }
  t.is((await call(stranger, 'POST', '/v1/identities', { label: 'x', domain })).json.error.code, 'domain_not_found');

  const idn = await call(owner, 'POST', '/v1/domains', { domain: `bücher-${randomUUID().slice(0, 6)}.example` });
  t.is(idn.status, 201);
  t.regex(idn.json.domain, /^xn--bcher-.*\.example$/);
  for (const bad of ['inbox.domains.test', 'sub.inbox.domains.test', MX_HOST, 'localhost', 'https://example.com/', 'a..b.com', '1.2.3.4', '-x.example.com']) {
    const refused = await call(owner, 'POST', '/v1/domains', { domain: bad });
    t.is(refused.status, 400, bad);
    t.is(refused.json.error.details.issues[0].path, 'body.domain', bad);
  }

  // A name server that never answers: 503 dependency_timeout, retryable; the domain is unchanged.
  const timedOut = await call(owner, 'POST', `/v1/domains/${winner.id}/verify`);
  t.is(timedOut.status, 503);
  t.is(timedOut.json.error.code, 'dependency_timeout');
  t.true(timedOut.json.retryable);
  t.is((await call(owner, 'GET', `/v1/domains/${winner.id}`)).json.status, 'pending_verification');

  const starter = await keyFor(host, ALL, undefined, 'starter');
  t.is((await call(starter, 'POST', '/v1/domains', { domain: `one-${randomUUID().slice(0, 6)}.example` })).status, 201);
  const over = await call(starter, 'POST', '/v1/domains', { domain: `two-${randomUUID().slice(0, 6)}.example` });
  t.is(over.status, 403);
  t.is(over.json.error.code, 'domain_quota_exceeded');
  const reader = await keyFor(host, ['domains:read'], starter.orgId);
  t.is((await call(reader, 'POST', '/v1/domains', { domain: 'x.example' })).status, 403);
});

test.serial('domains: a name under a domain another organization verified is refused 409, at registration and at verification; a parent of one is not', async (t) => {
  const zone = `z${randomUUID().slice(0, 8)}.example.org`;
  let dns: Dnsmasq = await startDnsmasq({ localDomains: [zone] });
  const port = Number(dns.server.split(':')[1]);
  const host = await startWith(dns.server);
  t.teardown(async () => {
    await host.close();
    await dns.stop();
  });
  const call = callOf(host);
  const [owner, other, third] = await Promise.all([keyFor(host, ALL), keyFor(host, ALL), keyFor(host, ALL)]);
  const registered = await call(owner, 'POST', '/v1/domains', { domain: zone });
  t.is(registered.status, 201);
  const late = await call(other, 'POST', '/v1/domains', { domain: `late.${zone}` });
  t.is(late.status, 201, 'a pending parent blocks nothing (no squatting a zone by registering it)');

  await dns.stop();
  dns = await startDnsmasq({ localDomains: [zone], mx: [[zone, MX_HOST, 10]], txt: [[`_service-verify.${zone}`, registered.json.dns_records[1].value]] }, port);
  t.is((await call(owner, 'POST', `/v1/domains/${registered.json.id}/verify`)).status, 200);

  for (const name of [`mail.${zone}`, `a.b.${zone.toUpperCase()}.`]) {
    const refused = await call(other, 'POST', '/v1/domains', { domain: name });
    t.is(refused.status, 409, name);
    t.is(refused.json.error.code, 'domain_already_registered');
    t.is(refused.json.error.details.under, zone);
  }
  const lateVerify = await call(other, 'POST', `/v1/domains/${late.json.id}/verify`);
  t.is(lateVerify.status, 409, 'registered before the parent was verified, it cannot be verified after');
  t.like(lateVerify.json.error, { code: 'domain_already_registered', details: { under: zone } });
  t.is((await call(owner, 'POST', '/v1/domains', { domain: `mail.${zone}` })).status, 201, 'the zone owner registers its own subdomains');
  t.is((await call(third, 'POST', '/v1/domains', { domain: zone.split('.').slice(1).join('.') })).status, 201, 'a parent of a verified domain is not refused');
  t.is((await call(owner, 'DELETE', `/v1/domains/${registered.json.id}`)).status, 204);
  t.is((await call(other, 'POST', '/v1/domains', { domain: `mail2.${zone}` })).status, 201, 'once the zone is removed, names under it are free');
});
