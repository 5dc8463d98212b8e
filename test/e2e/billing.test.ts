import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { tempDir } from './support.js';

// Billing and trials end to end through the sandbox provider: its pages, its signed callbacks,
// and the internal listener (mutual TLS + service credential) that redeems redirect tokens.

const SERVICE_TOKEN = `svc_${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '')}`;

/** A throwaway CA, a server certificate for 127.0.0.1, a client certificate, and a stranger's CA and client. */
const makeCertificates = (dir: string) => {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ca = (name: string) => ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.crt`);
  const leaf = (name: string, issuer: string, ext: string) => {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
    execFileSync('sh', ['-c', `printf '%s\\n' '${ext}' > ${name}.ext`], { cwd: dir });
    ssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${issuer}.crt`, '-CAkey', `${issuer}.key`, '-CAcreateserial', '-days', '1', '-extfile', `${name}.ext`, '-out', `${name}.crt`);
  };
  ca('ca');
  ca('stranger-ca');
  leaf('server', 'ca', 'subjectAltName=IP:127.0.0.1');
  leaf('client', 'ca', 'extendedKeyUsage=clientAuth');
  leaf('stranger', 'stranger-ca', 'extendedKeyUsage=clientAuth');
  const pem = (name: string) => readFileSync(join(dir, name));
  return { path: (name: string) => join(dir, name), pem };
};

let host: RunningHost;
let certs: ReturnType<typeof makeCertificates>;
let cleanup: () => void;
test.before(async () => {
  const dir = tempDir('ephemail-billing');
  cleanup = dir.cleanup;
  certs = makeCertificates(dir.dir);
  host = await startHost(
    loadConfig({
      DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'billing.test',
      INTERNAL_PORT: '0', INTERNAL_TLS_CERT: certs.path('server.crt'), INTERNAL_TLS_KEY: certs.path('server.key'),
      INTERNAL_TLS_CA: certs.path('ca.crt'), INTERNAL_SERVICE_TOKEN: SERVICE_TOKEN,
    }),
  );
});
test.after.always(async () => {
  await host.close();
  cleanup();
});

const tenant = async (scopes = ['billing:read', 'billing:write', 'trials:write', 'identities:read', 'identities:write']) => {
  const org = `org_${randomUUID().slice(0, 8)}`;
  const created = await host.ephemail.auth.createApiKey({ orgId: org, projectIds: [`proj_${org.slice(4)}`], scopes, plan: 'starter' });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  return { key: created.right.key, org, project: `proj_${org.slice(4)}` };
};
type Tenant = Awaited<ReturnType<typeof tenant>>;

const call = async (who: Tenant, method: string, path: string, body?: unknown) => {
  const headers: Record<string, string> = { authorization: `Bearer ${who.key}`, 'x-org-id': who.org, 'x-project-id': who.project };
  if (method !== 'GET') Object.assign(headers, { 'idempotency-key': randomUUID(), 'content-type': 'application/json' });
  const res = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: text === '' ? undefined : (JSON.parse(text) as any) };
};

/** A POST to the internal listener with a client certificate (or none) and a bearer (or none). */
const internal = (path: string, body: unknown, options: { client?: 'client' | 'stranger' | 'none'; bearer?: string | null } = {}) =>
  new Promise<{ status: number; json: any }>((resolve, reject) => {
    const client = options.client ?? 'client';
    const text = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1', port: host.internalPort, path, method: 'POST', ca: certs.pem('ca.crt'),
        ...(client === 'none' ? {} : { cert: certs.pem(`${client}.crt`), key: certs.pem(`${client}.key`) }),
        headers: { 'content-type': 'application/json', ...(options.bearer === null ? {} : { authorization: `Bearer ${options.bearer ?? SERVICE_TOKEN}` }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });

/** Submits a sandbox page's form, as a person's browser would. */
const submit = async (pageUrl: string, action: string) => {
  const page = await fetch(pageUrl);
  const html = await page.text();
  const form = new RegExp(`action="([^"]*/${action})"`).exec(html)?.[1];
  if (form === undefined) throw new Error(`no ${action} form on ${pageUrl}: ${html}`);
  const res = await fetch(new URL(form, pageUrl), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  return { status: res.status, html: await res.text() };
};

test('billing: trial → convert → sandbox checkout page → signed callback → trial CONVERTED, subscription active, an invoice', async (t) => {
  const who = await tenant();
  const started = await call(who, 'POST', '/v1/trials/start', { plan: 'growth' });
  t.is(started.status, 201, started.text);
  t.like(started.json, { plan: 'growth', status: 'ACTIVE', org_id: who.org, days_remaining: 7 });
  t.regex(started.json.id, /^trial_/);
  t.is(Date.parse(started.json.expires_at) - Date.parse(started.json.started_at), 7 * 86_400_000);
  t.like((await call(who, 'GET', '/v1/billing/subscription')).json, { plan: 'growth', status: 'trialing', trial: { id: started.json.id, status: 'ACTIVE' }, billing_provider: 'sandbox' });
  t.is((await call(who, 'POST', '/v1/trials/start', { plan: 'pro' })).json.error.code, 'trial_already_exists');

  const converting = await call(who, 'POST', `/v1/trials/${started.json.id}/convert`);
  t.is(converting.status, 200, converting.text);
  t.like(converting.json, { trial_id: started.json.id, plan: 'growth' });
  const paid = await submit(converting.json.checkout_url, 'pay');
  t.is(paid.status, 200, paid.html);
  t.regex(paid.html, /Payment complete/);

  t.like((await call(who, 'GET', `/v1/trials/${started.json.id}`)).json, { status: 'CONVERTED', days_remaining: 0 });
  const subscription = (await call(who, 'GET', '/v1/billing/subscription')).json;
  t.like(subscription, { plan: 'growth', status: 'active', trial: { status: 'CONVERTED' }, billing_provider: 'sandbox' });
  t.regex(subscription.customer_reference, /^cus_sbx_/);
  const invoices = (await call(who, 'GET', '/v1/billing/invoices')).json;
  t.like(invoices, { total: 1, limit: 20, offset: 0 });
  t.like(invoices.items[0], { amount_cents: 9_900, currency: 'usd', status: 'paid', pdf_download: { exchange_required: true } });
  t.regex(invoices.items[0].id, /^inv_/);
  t.is((await call(who, 'POST', `/v1/trials/${started.json.id}/convert`)).json.error.code, 'trial_already_converted');

  // The invoice's PDF: a fresh one-time token, exchanged once for the document.
  const invoiceId = invoices.items[0].id as string;
  const issued = await call(who, 'POST', `/v1/billing/invoices/${invoiceId}/download-token`);
  t.regex(issued.json.download_token, /^idt_[A-Za-z0-9]{32}$/);
  t.is((await call(who, 'GET', '/v1/billing/invoices')).json.items[0].pdf_download.token_preview, `idt_…${issued.json.download_token.slice(-4)}`);
  const pdf = await pdfOf(who, invoiceId, issued.json.download_token);
  t.is(pdf.status, 200);
  t.is(pdf.type, 'application/pdf');
  t.is(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  const text = pdfText(pdf.bytes);
  t.true(text.includes(invoiceId) && text.includes('ephemail growth plan, 30 days') && text.includes('99.00 USD'), text);
  const again = await pdfOf(who, invoiceId, issued.json.download_token);
  t.is(again.status, 409, 'the second exchange is refused');
  t.is((await pdfOf(who, invoiceId, 'idt_wrong')).status, 403);
  const stranger = await tenant();
  t.is((await call(stranger, 'POST', `/v1/billing/invoices/${invoiceId}/download-token`)).json.error.code, 'invoice_not_found');
});

const pdfOf = async (who: Tenant, invoiceId: string, token: string) => {
  const res = await fetch(`${host.url}/v1/billing/invoices/${invoiceId}/pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${who.key}`, 'x-org-id': who.org, 'x-project-id': who.project, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
    body: JSON.stringify({ download_token: token }),
  });
  return { status: res.status, type: res.headers.get('content-type')?.split(';')[0], bytes: Buffer.from(await res.arrayBuffer()) };
};

/** The text of a PDF, as poppler's pdftotext reads it (a real reader, not our own writer). */
const pdfText = (bytes: Buffer): string => execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString('utf8');

test('billing: a checkout token is redeemed once on the internal listener (mutual TLS + service credential), never on the public port', async (t) => {
  const who = await tenant();
  t.is((await call(who, 'POST', '/v1/billing/checkout', { plan: 'platinum' })).json.error.code, 'invalid_plan');
  const checkout = await call(who, 'POST', '/v1/billing/checkout', { plan: 'pro' });
  t.is(checkout.status, 200, checkout.text);
  t.regex(checkout.json.checkout_redirect_token, /^crt_[A-Za-z0-9]{40}$/);
  const token = checkout.json.checkout_redirect_token as string;
  const body = { checkout_redirect_token: token, request_id: 'req_test' };
  t.is((await fetch(`${host.url}/v1/billing/redeem-checkout`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })).status, 404, 'not on the public port');
  await t.throwsAsync(() => internal('/v1/billing/redeem-checkout', body, { client: 'none' }), undefined, 'no client certificate: no handshake');
  await t.throwsAsync(() => internal('/v1/billing/redeem-checkout', body, { client: 'stranger' }), undefined, 'a certificate of another CA: no handshake');
  const noBearer = await internal('/v1/billing/redeem-checkout', body, { bearer: null });
  t.is(noBearer.status, 401);
  t.is((await internal('/v1/billing/redeem-checkout', body, { bearer: 'svc_wrong_wrong_wrong_wrong_wrong_wrong' })).status, 401);
  const [first, second] = await Promise.all([internal('/v1/billing/redeem-checkout', body), internal('/v1/billing/redeem-checkout', body)]);
  const answers = [first, second].sort((a, b) => a.status - b.status);
  t.is(answers[0]!.status, 200);
  t.regex(answers[0]!.json.checkout_url, /\/sandbox\/checkout\//);
  t.is(answers[1]!.status, 409);
  t.is(answers[1]!.json.error.code, 'token_replayed');
  t.like(answers[1]!.json, { retryable: false, error: { details: { requestId: answers[1]!.json.requestId } } });
  const unknown = await internal('/v1/billing/redeem-checkout', { checkout_redirect_token: 'crt_nope', request_id: 'r' });
  t.is(unknown.status, 403);
  t.is(unknown.json.error.code, 'token_invalid');

  // Paying the redeemed checkout: the subscription starts; its portal renews and cancels it.
  t.is((await call(who, 'POST', '/v1/billing/portal')).json.error.code, 'no_active_subscription');
  t.is((await submit(answers[0]!.json.checkout_url, 'pay')).status, 200);
  t.like((await call(who, 'GET', '/v1/billing/subscription')).json, { plan: 'pro', status: 'active', trial: null });
  const portal = await call(who, 'POST', '/v1/billing/portal');
  t.regex(portal.json.portal_redirect_token, /^prt_/);
  const redeemed = await internal('/v1/billing/redeem-portal', { portal_redirect_token: portal.json.portal_redirect_token, request_id: 'r2' });
  t.is(redeemed.status, 200);
  t.is((await submit(redeemed.json.portal_url, 'renew')).status, 200);
  t.is((await call(who, 'GET', '/v1/billing/invoices')).json.total, 2);
  t.is((await submit(redeemed.json.portal_url, 'cancel')).status, 200);
  t.like((await call(who, 'GET', '/v1/billing/subscription')).json, { status: 'canceled' });
});

test('billing: a forged or replayed callback changes nothing', async (t) => {
  const who = await tenant();
  const forged = JSON.stringify({ type: 'checkout.completed', eventId: 'evt_forged', orgId: who.org, plan: 'enterprise', reference: 'chk_x', customerReference: 'c', subscriptionReference: 's', periodStart: new Date().toISOString(), periodEnd: new Date().toISOString() });
  const res = await fetch(`${host.url}/v1/billing/callbacks/sandbox`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sandbox-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }, body: forged });
  t.is(res.status, 400);
  t.is(((await res.json()) as any).error.code, 'invalid_signature');
  t.is((await call(who, 'GET', '/v1/billing/subscription')).json.error.code, 'no_active_subscription');
});

test('billing: trials and invoices of another organization answer 404; concurrent trial starts give one trial', async (t) => {
  const [a, b] = await Promise.all([tenant(), tenant()]);
  const starts = await Promise.all(Array.from({ length: 6 }, () => call(a, 'POST', '/v1/trials/start', { plan: 'starter' })));
  t.is(starts.filter((s) => s.status === 201).length, 1);
  t.true(starts.filter((s) => s.status !== 201).every((s) => s.json.error.code === 'trial_already_exists'));
  const trial = starts.find((s) => s.status === 201)!.json;
  for (const [method, path] of [['GET', `/v1/trials/${trial.id}`], ['POST', `/v1/trials/${trial.id}/convert`], ['POST', `/v1/trials/${trial.id}/cancel`]] as const) {
    const answer = await call(b, method, path);
    t.is(answer.status, 404, `${method} ${path}`);
    t.is(answer.json.error.code, 'trial_not_found');
  }
  t.is((await call(b, 'GET', '/v1/billing/invoices')).json.total, 0);
  t.is((await call(a, 'POST', '/v1/trials/start', { plan: 'pro' })).json.error.code, 'trial_already_exists');
  const c = await tenant();
  t.is((await call(c, 'POST', '/v1/trials/start', { plan: 'enterprise' })).json.error.code, 'invalid_plan');
  const canceled = await call(a, 'POST', `/v1/trials/${trial.id}/cancel`);
  t.like(canceled.json, { status: 'CANCELED' });
  t.is((await call(a, 'POST', `/v1/trials/${trial.id}/convert`)).json.error.code, 'trial_canceled');
});
