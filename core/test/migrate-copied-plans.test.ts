import test from 'ava';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../src/index.js';

// Stores written before the limits in force were computed hold plans copied into organizations
// by trials and checkouts; the first start of this version takes those copies out, once.

const NOW = '2026-03-01T12:00:00.000Z';

const legacyStore = async () => {
  const store = createMemoryDocumentStore();
  await store.init([]);
  const org = (id: string, plan: string) => store.insert('organizations', { id, name: id, plan, created_at: NOW });
  // A running trial of growth that copied its plan over the organization's starter.
  await org('org_trial', 'growth');
  await store.insert('trials', { id: 'trial_old', org_id: 'org_trial', plan: 'growth', status: 'ACTIVE', base_plan: 'starter', started_at: NOW, expires_at: '2026-03-08T12:00:00.000Z', grace_until: '2026-03-11T12:00:00.000Z', converted_at: null, canceled_at: null, purged_at: null, open: true, due_at: '2026-03-08T12:00:00.000Z' });
  // A paid enterprise subscription whose checkout copied its plan.
  await org('org_paid', 'enterprise');
  const subscription = { plan: 'enterprise', status: 'active', subscription_reference: 'sub_1', current_period_start: NOW, current_period_end: '2026-04-01T12:00:00.000Z', canceled_at: null };
  await store.insert('billing_accounts', { id: 'org_paid', provider: 'test', customer_reference: 'cus_1', subscription_reference: 'sub_1', subscription, created_at: NOW, updated_at: NOW });
  // An organization the operator put on pro, untouched by billing.
  await org('org_assigned', 'pro');
  return { store };
};

test('migration: copied plans go back to what the organization is entitled to, and only once', async (t) => {
  const { store } = await legacyStore();
  const app = createEphemail({ store, inboxDomain: 'inbox.test', clock: new FakeClock(NOW) });
  await app.init();
  const planOf = async (id: string) => (await store.get('organizations', id))?.plan;
  t.is(await planOf('org_trial'), 'starter', 'the plan the trial saved');
  t.is(await planOf('org_paid'), 'starter', 'what a cancellation used to leave');
  t.is(await planOf('org_assigned'), 'pro');
  t.is(await app.billing.planInForce('org_trial'), 'growth', 'the trial still runs');
  t.is(await app.billing.planInForce('org_paid'), 'enterprise', 'the subscription is still paid');

  const current = (await store.get('organizations', 'org_paid'))!;
  const { version, ...rest } = current;
  t.true(await store.replace('organizations', { ...rest, plan: 'growth' }, version));
  await app.init();
  t.is(await planOf('org_paid'), 'growth', 'a later start changes nothing');
});
