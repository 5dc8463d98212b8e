import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';

// Every HTML page the host serves carries the same security headers: it may not be framed by
// another site (a "Pay" or "Sign in" button under someone else's overlay), nor sniffed.

let host: RunningHost;
test.before(async () => {
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_ENABLED: 'false', LOG_LEVEL: 'silent' }));
});
test.after.always(() => host.close());

/** A sandbox checkout page's URL, as a trial's conversion hands it out. */
const checkoutPage = async (): Promise<string> => {
  const org = `org_${randomUUID().slice(0, 8)}`;
  const created = await host.ephemail.auth.createApiKey({ orgId: org, projectIds: [`proj_${org.slice(4)}`], scopes: ['trials:write'], plan: 'starter' });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  const headers = { authorization: `Bearer ${created.right.key}`, 'x-org-id': org, 'x-project-id': `proj_${org.slice(4)}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => (await fetch(`${host.url}${path}`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: JSON.stringify(body) })).json() as Promise<any>;
  const trial = await post('/v1/trials/start', { plan: 'growth' });
  return (await post(`/v1/trials/${trial.id}/convert`, {})).checkout_url as string;
};

const assertPageHeaders = (t: ExecutionContext, what: string, res: Response) => {
  t.regex(res.headers.get('content-type') ?? '', /^text\/html/, what);
  t.is(res.headers.get('x-frame-options'), 'DENY', what);
  t.regex(res.headers.get('content-security-policy') ?? '', /(^|; )frame-ancestors 'none'(;|$)/, what);
  t.is(res.headers.get('x-content-type-options'), 'nosniff', what);
  t.is(res.headers.get('referrer-policy'), 'no-referrer', what);
};

test('pages: the web app, the sign-in page and the sandbox checkout and portal pages all forbid framing and sniffing', async (t) => {
  const checkout = await checkoutPage();
  const pages: [string, () => Promise<Response>][] = [
    ['web app', () => fetch(`${host.url}/`)],
    ['sign-in page', () => fetch(`${host.url}/consumer/verify?token=mlt_x`)],
    ['sandbox checkout', () => fetch(checkout)],
    ['sandbox checkout paid', () => fetch(`${checkout}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })],
    ['unknown sandbox checkout', () => fetch(`${host.url}/sandbox/checkout/nope`)],
    ['unknown sandbox portal', () => fetch(`${host.url}/sandbox/portal/nope`)],
  ];
  for (const [what, open] of pages) {
    const res = await open();
    await res.arrayBuffer();
    assertPageHeaders(t, what, res);
  }
});

test('pages: an answer no page handler shaped (an unknown route) still may not be framed', async (t) => {
  const res = await fetch(`${host.url}/no/such/page`);
  await res.arrayBuffer();
  t.is(res.headers.get('x-frame-options'), 'DENY');
  t.regex(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
});

test('pages: API answers, which skip the pages on their way in, carry the baseline too', async (t) => {
  for (const path of ['/v1/identities', '/V1/no/such/route', '/livez']) {
    const res = await fetch(`${host.url}${path}`);
    await res.arrayBuffer();
    t.is(res.headers.get('x-frame-options'), 'DENY', path);
    t.is(res.headers.get('x-content-type-options'), 'nosniff', path);
    t.regex(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path);
  }
});
