import test from 'ava';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../src/index.js';
import { newPrincipal, right, tagOf } from './support.js';

// Without a payment provider (the host's PAYMENTS=off) billing is not configured: nothing
// pretends a payment or a trial happened, and the plan is the one the operator assigns.

const setup = async () => {
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock: new FakeClock('2026-03-01T12:00:00.000Z') });
  await app.init();
  const principal = await newPrincipal(app, { plan: 'starter', scopes: ['identities:write', 'billing:read', 'billing:write', 'trials:write'] });
  return { app, principal };
};

test('billing not configured: subscription, checkout, portal, invoices, trials and the consumer upgrade answer BillingNotConfigured', async (t) => {
  const { app, principal } = await setup();
  t.false(app.billing.configured);
  const answers = [
    await app.billing.subscription(principal),
    await app.billing.checkout(principal, { plan: 'enterprise' }),
    await app.billing.portal(principal),
    await app.billing.invoices(principal, { limit: 20, offset: 0 }),
    await app.billing.redeemCheckout('crt_x'),
    await app.trials.start(principal, { plan: 'pro' }),
    await app.trials.get(principal, 'trial_x'),
    await app.trials.convert(principal, 'trial_x'),
    await app.trials.cancel(principal, 'trial_x'),
    await app.consumer.upgrade({ id: 'cons_x', email: 'a@b.example', org_id: principal.orgId, project_id: principal.projectId, plan: 'trial', created_at: '2026-03-01T12:00:00.000Z', verified_at: null }),
  ];
  t.deepEqual(answers.map(tagOf), Array(answers.length).fill('BillingNotConfigured'));
  t.is(right(await app.billing.usage(principal)).identities_limit, 50, 'usage still answers');
});

test('billing not configured: the plan the operator assigns is the plan in force, at once', async (t) => {
  const { app, principal } = await setup();
  t.true(await app.billing.assignPlan(principal.orgId, 'growth'));
  t.like(right(await app.billing.usage(principal)), { identities_limit: 500, domains_limit: 3 });
  t.is(await app.billing.planInForce(principal.orgId), 'growth');
  t.false(await app.billing.assignPlan('org_nobody', 'pro'), 'no such organization');
});
