import { randomUUID } from 'node:crypto';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, startHost } from '@ephemail/host-api';
import { startStandIn } from '../../adapters/payments-stripe/test/stand-in.js';
import { checkoutSession, signed, stripeEvent } from '../../adapters/payments-stripe/test/events.js';

// PAYMENTS=stripe: the host builds the Stripe provider from its settings; its API calls go to a
// loopback stand-in (STRIPE_API_BASE), and its callbacks are payloads signed by Stripe's own helper.

const WEBHOOK_SECRET = 'whsec_host_test_secret';

test('billing on Stripe: a checkout reaches the Stripe API with the plan\u2019s price, and a signed checkout.session.completed activates the subscription', async (t) => {
  const standIn = await startStandIn();
  const host = await startHost(
    loadConfig({
      DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: `http://127.0.0.1:${standIn.port}`,
      STRIPE_PRICE_STARTER: 'price_starter', STRIPE_PRICE_GROWTH: 'price_growth', STRIPE_PRICE_PRO: 'price_pro', STRIPE_PRICE_ENTERPRISE: 'price_ent',
      STRIPE_SUCCESS_URL: 'https://app.example.com/billing/done', STRIPE_CANCEL_URL: 'https://app.example.com/billing', STRIPE_PORTAL_RETURN_URL: 'https://app.example.com/billing',
    }),
  );
  t.teardown(async () => {
    await host.close();
    await standIn.close();
  });
  const org = `org_${randomUUID().slice(0, 8)}`;
  const key = await host.ephemail.auth.createApiKey({ orgId: org, projectIds: [`proj_${org.slice(4)}`], scopes: ['billing:read', 'billing:write'] });
  if (E.isLeft(key)) throw new Error(key.left._tag);
  const headers = { authorization: `Bearer ${key.right.key}`, 'x-org-id': org, 'x-project-id': `proj_${org.slice(4)}`, 'content-type': 'application/json' };
  const checkout = await fetch(`${host.url}/v1/billing/checkout`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: JSON.stringify({ plan: 'growth' }) });
  t.is(checkout.status, 200);
  const session = standIn.requests.find((r) => r.path === '/v1/checkout/sessions');
  t.like(session?.form, { mode: 'subscription', 'line_items[0][price]': 'price_growth', 'metadata[org_id]': org, 'metadata[plan]': 'growth' });
  t.is((await fetch(`${host.url}/sandbox/checkout/x`)).status, 404, 'no sandbox pages with Stripe');

  const completed = stripeEvent('checkout.session.completed', checkoutSession({ metadata: { org_id: org, plan: 'growth', reference: session!.form['metadata[reference]'] } }));
  const delivery = signed(standIn.stripe, completed, WEBHOOK_SECRET);
  const answer = await fetch(`${host.url}/v1/billing/callbacks/stripe`, { method: 'POST', headers: delivery.headers, body: delivery.body });
  t.is(answer.status, 200);
  t.like(await answer.json(), { outcome: 'handled' });
  const subscription = (await (await fetch(`${host.url}/v1/billing/subscription`, { headers })).json()) as any;
  t.like(subscription, { plan: 'growth', status: 'active', billing_provider: 'stripe' });
  const forged = signed(standIn.stripe, completed, 'whsec_someone_else');
  t.is((await fetch(`${host.url}/v1/billing/callbacks/stripe`, { method: 'POST', headers: forged.headers, body: forged.body })).status, 400);
});
