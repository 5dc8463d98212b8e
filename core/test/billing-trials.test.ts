import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { createEphemail, createMemoryDocumentStore, DEFAULT_PLANS, FakeClock } from '../src/index.js';
import { newPrincipal, testProvider } from './support.js';

const DAY = 86_400_000;

const setup = async () => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, billing: { provider: testProvider } });
  await app.init();
  const principal = await newPrincipal(app, { plan: 'starter', scopes: ['identities:read', 'identities:write', 'billing:read', 'billing:write', 'trials:write'] });
  return { app, clock, principal };
};

const right = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

const completeCheckout = (app: Awaited<ReturnType<typeof setup>>['app'], orgId: string, reference: string, eventId: string) =>
  app.billing.callback(
    Buffer.from(JSON.stringify({ type: 'checkout.completed', eventId, orgId, plan: 'growth', reference, customerReference: `cus_${orgId}`, subscriptionReference: `sub_${reference}`, periodStart: '2026-03-09T00:00:00.000Z', periodEnd: '2026-04-09T00:00:00.000Z' })),
    { 'x-test': 'signed' },
  );

test('trials: ACTIVE → EXPIRED by the clock (the plan reverts), converted within the grace, once per callback', async (t) => {
  const { app, clock, principal } = await setup();
  const trial = right(await app.trials.start(principal, { plan: 'growth' }));
  const bulk = await app.identities.bulkCreate(principal, { identities: Array.from({ length: 20 }, (_, i) => ({ label: `b${i}` })) });
  t.true(E.isRight(bulk), 'the growth plan allows a batch of 20 while the trial runs');
  clock.advance(7 * DAY - 1);
  await app.maintenance.tick('m1');
  t.is(right(await app.trials.get(principal, trial.id)).status, 'ACTIVE');
  clock.advance(1);
  t.like(await app.maintenance.tick('m1'), { trialsExpired: 1 });
  t.like(right(await app.trials.get(principal, trial.id)), { status: 'EXPIRED', days_remaining: 0 });
  clock.advance(1_000);
  t.like(await app.identities.bulkCreate(principal, { identities: Array.from({ length: 20 }, (_, i) => ({ label: `c${i}` })) }), { left: { _tag: 'BatchTooLarge' } });
  const conversion = right(await app.trials.convert(principal, trial.id));
  t.is(conversion.checkout_url, `https://pay.example/checkout/growth/${trial.id}`);
  t.like(await completeCheckout(app, principal.orgId, trial.id, 'evt_1'), { outcome: 'handled' });
  t.like(await completeCheckout(app, principal.orgId, trial.id, 'evt_1'), { outcome: 'duplicate' });
  t.is(right(await app.trials.get(principal, trial.id)).status, 'CONVERTED');
  t.like(right(await app.billing.subscription(principal)), { plan: 'growth', status: 'active' });
});

test('trials: after the grace the trial\u2019s identities are squashed and convert answers trial_expired', async (t) => {
  const { app, clock, principal } = await setup();
  const trial = right(await app.trials.start(principal, { plan: 'pro' }));
  clock.advance(7 * DAY);
  await app.maintenance.tick('m1');
  clock.advance(2 * DAY);
  const made = right(await app.identities.create(principal, { label: 'during the grace', ttl_hours: 48 }));
  clock.advance(DAY);
  t.like(await app.maintenance.tick('m1'), { trialsPurged: 1 });
  t.is(right(await app.identities.get(principal, made.id)).status, 'squashed');
  t.like(await app.trials.convert(principal, trial.id), { left: { _tag: 'TrialExpired' } });
  t.like(await app.trials.cancel(principal, trial.id), { left: { _tag: 'TrialExpired' } });
  t.like(await app.billing.subscription(principal), { left: { _tag: 'NoActiveSubscription' } });
});

test('billing: a checkout redirect token expires after ten minutes and is refused when unknown', async (t) => {
  const { app, clock, principal } = await setup();
  const { checkout_redirect_token: token } = right(await app.billing.checkout(principal, { plan: 'pro' }));
  clock.advance(10 * 60_000);
  t.like(await app.billing.redeemCheckout(token), { left: { _tag: 'TokenExpired' } });
  t.like(await app.billing.redeemCheckout(`${token}x`), { left: { _tag: 'TokenInvalid' } });
  const fresh = right(await app.billing.checkout(principal, { plan: 'pro' })).checkout_redirect_token;
  t.like(await app.billing.redeemPortal(fresh), { left: { _tag: 'TokenInvalid' } }, 'a checkout token is not a portal token');
  t.regex(right(await app.billing.redeemCheckout(fresh)).checkout_url, /^https:\/\/pay\.example\/checkout\/pro\/chk_/);
});

test('billing: a renewal that comes before the checkout that made its subscription is deferred, then applied', async (t) => {
  const { app, principal } = await setup();
  const renewal = Buffer.from(JSON.stringify({
    type: 'subscription.renewed', eventId: 'evt_early', subscriptionReference: 'sub_chk_9', periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z',
    invoice: { reference: 'in_1', amountCents: 9_900, currency: 'USD', periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', lines: [{ description: 'growth', amountCents: 9_900 }] },
  }));
  t.like(await app.billing.callback(renewal, { 'x-test': 'signed' }), { outcome: 'deferred' });
  await completeCheckout(app, principal.orgId, 'chk_9', 'evt_checkout');
  t.like(await app.billing.callback(renewal, { 'x-test': 'signed' }), { outcome: 'handled' });
  const invoices = right(await app.billing.invoices(principal, { limit: 20, offset: 0 }));
  t.is(invoices.total, 1);
  t.like(invoices.items[0], { amount_cents: 9_900, currency: 'usd' });
});

test('usage: API calls are counted per organization and month, refused past the plan, and start again next month', async (t) => {
  const clock = new FakeClock('2026-03-31T23:59:00.000Z');
  const plans = { ...DEFAULT_PLANS, starter: { identities: 5, bulkBatchSize: 5, webhookEndpoints: 1, domains: 1, apiCallsPerMonth: 5 } };
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, config: { plans } });
  await app.init();
  const principal = await newPrincipal(app, { plan: 'starter', scopes: ['identities:write', 'billing:read'] });
  const admitted = [];
  for (let i = 0; i < 6; i += 1) admitted.push((await app.billing.apiCalls.admit(principal.orgId)).admitted);
  t.deepEqual(admitted, [true, true, true, true, true, false]);
  await app.billing.apiCalls.flush();
  right(await app.identities.create(principal, { label: 'x' }));
  t.like(right(await app.billing.usage(principal)), { api_calls: 5, api_calls_limit: 5, identities_created: 1, active_identities: 1, identities_limit: 5, domains_registered: 0, domains_limit: 1, period_start: '2026-03-01T00:00:00.000Z' });
  clock.advance(60_000);
  t.true((await app.billing.apiCalls.admit(principal.orgId)).admitted, 'a new month');
  t.like(right(await app.billing.usage(principal)), { api_calls: 1, identities_created: 0, period_start: '2026-04-01T00:00:00.000Z' });
  await app.close();
});

test('billing: a trial past its end is no longer shown as a trialing subscription, even before the clock job has marked it expired', async (t) => {
  const { app, clock, principal } = await setup();
  right(await app.trials.start(principal, { plan: 'growth' }));
  t.like(right(await app.billing.subscription(principal)), { plan: 'growth', status: 'trialing' });
  clock.advance(15 * DAY);
  // No trial clock tick has run: the stored trial still says ACTIVE, but its end has passed.
  t.like(await app.billing.subscription(principal), { left: { _tag: 'NoActiveSubscription' } });
});
