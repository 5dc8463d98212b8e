import test from 'ava';
import { randomUUID } from 'node:crypto';
import { ProviderError } from '@ephemail/core';
import { createStripePaymentProvider } from '../src/index.js';
import { OPTIONS } from './options.js';
import { clientFor, closedPort, startStandIn, stripeError, stripeLike, type Responder } from './stand-in.js';

const orgId = () => `org_${randomUUID()}`;

/** Runs `body` against a fresh stand-in (one per test, so tests run concurrently) and closes it. */
const withStandIn = async <A>(respond: Responder, body: (standIn: Awaited<ReturnType<typeof startStandIn>>) => Promise<A>): Promise<A> => {
  const standIn = await startStandIn(respond);
  try {
    return await body(standIn);
  } finally {
    await standIn.close();
  }
};

test('payments-stripe: createCustomer creates a customer tagged with the organization and answers its id', async (t) => {
  await withStandIn(stripeLike, async ({ stripe, requests }) => {
    const org = orgId();
    const { customerReference } = await createStripePaymentProvider(stripe, OPTIONS).createCustomer({ orgId: org });
    t.regex(customerReference, /^cus_/);
    t.is(requests.length, 1);
    t.like(requests[0], { method: 'POST', path: '/v1/customers', form: { 'metadata[org_id]': org } });
    t.regex(requests[0]?.contentType ?? '', /^application\/x-www-form-urlencoded/);
  });
});

test('payments-stripe: createCheckoutSession subscribes the customer to the plan price and answers the hosted URL', async (t) => {
  await withStandIn(stripeLike, async ({ stripe, requests }) => {
    const org = orgId();
    const reference = `chk_${randomUUID()}`;
    const { url } = await createStripePaymentProvider(stripe, OPTIONS).createCheckoutSession({ customerReference: 'cus_123', orgId: org, plan: 'growth', reference });
    t.regex(url, /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    t.is(requests.length, 1);
    t.is(requests[0]?.path, '/v1/checkout/sessions');
    t.deepEqual(requests[0]?.form, {
      mode: 'subscription',
      customer: 'cus_123',
      client_reference_id: reference,
      'line_items[0][price]': 'price_growth',
      'line_items[0][quantity]': '1',
      'metadata[org_id]': org,
      'metadata[plan]': 'growth',
      'metadata[reference]': reference,
      'subscription_data[metadata][org_id]': org,
      'subscription_data[metadata][plan]': 'growth',
      'subscription_data[metadata][reference]': reference,
      success_url: OPTIONS.successUrl,
      cancel_url: OPTIONS.cancelUrl,
    });
  });
});

test('payments-stripe: each plan checks out with its own price', async (t) => {
  await withStandIn(stripeLike, async ({ stripe, requests }) => {
    const provider = createStripePaymentProvider(stripe, OPTIONS);
    for (const plan of ['starter', 'growth', 'pro', 'enterprise'] as const) {
      await provider.createCheckoutSession({ customerReference: 'cus_1', orgId: orgId(), plan, reference: `chk_${randomUUID()}` });
    }
    t.deepEqual(requests.map((r) => r.form['line_items[0][price]']), ['price_starter', 'price_growth', 'price_pro', 'price_enterprise']);
  });
});

test('payments-stripe: createPortalSession opens the portal for the customer with the return URL', async (t) => {
  await withStandIn(stripeLike, async ({ stripe, requests }) => {
    const { url } = await createStripePaymentProvider(stripe, OPTIONS).createPortalSession({ customerReference: 'cus_42', subscriptionReference: 'sub_42' });
    t.regex(url, /^https:\/\/billing\.stripe\.test\/p\/session\//);
    t.like(requests[0], { path: '/v1/billing_portal/sessions', form: { customer: 'cus_42', return_url: OPTIONS.portalReturnUrl } });
  });
});

test('payments-stripe: a session answered without a URL is a ProviderError, not half a session', async (t) => {
  const noUrl: Responder = () => ({ status: 200, body: { id: 'cs_test_nourl', object: 'checkout.session', url: null } });
  await withStandIn(noUrl, async ({ stripe }) => {
    const provider = createStripePaymentProvider(stripe, OPTIONS);
    const error = await t.throwsAsync(provider.createCheckoutSession({ customerReference: 'cus_1', orgId: orgId(), plan: 'pro', reference: 'chk_1' }), { instanceOf: ProviderError });
    t.false(error?.retryable);
  });
});

const failures = [
  { status: 500, type: 'api_error', retryable: true, kind: 'a server error' },
  { status: 503, type: 'api_error', retryable: true, kind: 'an unavailable service' },
  { status: 429, type: 'rate_limit_error', retryable: true, kind: 'a rate limit' },
  { status: 400, type: 'invalid_request_error', retryable: false, kind: 'an invalid request' },
  { status: 401, type: 'invalid_request_error', retryable: false, kind: 'a rejected key' },
  { status: 403, type: 'invalid_request_error', retryable: false, kind: 'a missing permission' },
] as const;

for (const { status, type, retryable, kind } of failures) {
  test(`payments-stripe: ${kind} (${status}) is a ProviderError that is ${retryable ? '' : 'not '}retryable`, async (t) => {
    await withStandIn(stripeError(status, type, `stand-in ${status}`), async ({ stripe, requests }) => {
      const provider = createStripePaymentProvider(stripe, OPTIONS);
      const calls = [
        provider.createCustomer({ orgId: orgId() }),
        provider.createCheckoutSession({ customerReference: 'cus_1', orgId: orgId(), plan: 'starter', reference: 'chk_1' }),
        provider.createPortalSession({ customerReference: 'cus_1', subscriptionReference: 'sub_1' }),
      ];
      for (const call of calls) {
        const error = await t.throwsAsync(call, { instanceOf: ProviderError });
        t.is(error?.retryable, retryable);
        t.regex(error?.message ?? '', new RegExp(`${status}.*stand-in ${status}`));
      }
      t.is(requests.length, 3, 'one request per call: the client made no retries of its own');
    });
  });
}

test('payments-stripe: a refused connection is a retryable ProviderError', async (t) => {
  const provider = createStripePaymentProvider(clientFor(await closedPort()), OPTIONS);
  const error = await t.throwsAsync(provider.createCustomer({ orgId: orgId() }), { instanceOf: ProviderError });
  t.true(error?.retryable);
  t.regex(error?.message ?? '', /StripeConnectionError/);
});

test('payments-stripe: an answer that is not JSON (a proxy error page) is a retryable ProviderError', async (t) => {
  await withStandIn(() => ({ status: 502, body: '<html>bad gateway</html>' }), async ({ stripe }) => {
    const error = await t.throwsAsync(createStripePaymentProvider(stripe, OPTIONS).createCustomer({ orgId: orgId() }), { instanceOf: ProviderError });
    t.true(error?.retryable);
  });
});

test('payments-stripe: missing prices, secret or URLs are refused at creation', (t) => {
  const stripe = clientFor(1);
  t.throws(() => createStripePaymentProvider(stripe, { ...OPTIONS, prices: { ...OPTIONS.prices, pro: '' } }), { message: /plan pro/ });
  t.throws(() => createStripePaymentProvider(stripe, { ...OPTIONS, webhookSecret: '' }), { message: /webhookSecret/ });
  t.throws(() => createStripePaymentProvider(stripe, { ...OPTIONS, successUrl: '/relative' }), { message: /successUrl/ });
  t.throws(() => createStripePaymentProvider(stripe, { ...OPTIONS, toleranceSeconds: 0 }), { message: /toleranceSeconds/ });
  t.is(createStripePaymentProvider(stripe, OPTIONS).name, 'stripe');
});
