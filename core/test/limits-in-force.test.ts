import test from 'ava';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type { Entitlement, PlanName, ProviderEvent } from '../src/index.js';
import { createEphemail, createMemoryDocumentStore, DEFAULT_PLANS, FakeClock, PLAN_NAMES, planInForce } from '../src/index.js';
import { newPrincipal, right, testProvider } from './support.js';

// The limits in force (spec/decisions.md "Limits in force"): the higher of what the organization
// is entitled to (an active paid subscription's plan, else the operator's) and an active trial's.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SCOPES = ['identities:read', 'identities:write', 'billing:read', 'billing:write', 'trials:write', 'domains:write'];

const setup = async (plan: PlanName) => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, billing: { provider: testProvider } });
  await app.init();
  const principal = await newPrincipal(app, { plan, scopes: SCOPES });
  const send = (event: ProviderEvent) => app.billing.callback(Buffer.from(JSON.stringify(event)), { 'x-test': 'signed' });
  const period = () => ({ periodStart: clock.now().toISOString(), periodEnd: new Date(clock.now().getTime() + 30 * DAY).toISOString() });
  const checkout = (eventId: string, plan: PlanName, reference: string): ProviderEvent => ({
    type: 'checkout.completed', eventId, orgId: principal.orgId, plan, reference, customerReference: `cus_${principal.orgId}`, subscriptionReference: `sub_${reference}`, ...period(),
  });
  const limits = async () => right(await app.billing.usage(principal));
  return { app, clock, principal, send, checkout, limits };
};

const entitled = (subscription: Entitlement['subscription'], assignedPlan: PlanName = 'starter'): Entitlement => ({ assignedPlan, subscription });

test('limits in force: the higher of the entitled plan and an active trial, never lower', (t) => {
  const now = '2026-03-01T12:00:00.000Z';
  const trial = (plan: PlanName, status: 'ACTIVE' | 'EXPIRED' | 'CANCELED' | 'CONVERTED' = 'ACTIVE', expires_at = '2026-03-08T12:00:00.000Z') => ({ plan, status, expires_at });
  t.is(planInForce(entitled(null, 'pro'), trial('starter'), now), 'pro', 'a trial of a lower plan lowers nothing');
  t.is(planInForce(entitled(null, 'starter'), trial('growth'), now), 'growth');
  t.is(planInForce(entitled({ plan: 'enterprise', status: 'canceled' }), trial('starter', 'CANCELED'), now), 'starter', 'a canceled subscription entitles to nothing');
  t.is(planInForce(entitled({ plan: 'growth', status: 'past_due' }), undefined, now), 'growth', 'past_due is still paid for while the provider collects');
  t.is(planInForce(entitled({ plan: 'starter', status: 'active' }, 'pro'), undefined, now), 'starter', 'an active paid subscription is the entitlement');
  t.is(planInForce(entitled(null), trial('pro', 'ACTIVE', now), now), 'starter', 'a trial past its end counts for nothing, clock job or not');
  t.is(planInForce(entitled(null), trial('pro', 'EXPIRED'), now), 'starter');
});

test('limits in force: paying enterprise, starting a starter trial, the provider canceling, then canceling the trial leaves the assigned plan', async (t) => {
  const { app, principal, send, checkout, limits } = await setup('starter');
  t.like(await send(checkout('evt_pay', 'enterprise', 'chk_1')), { outcome: 'handled' });
  t.is((await limits()).identities_limit, DEFAULT_PLANS.enterprise.identities);
  const trial = right(await app.trials.start(principal, { plan: 'starter' }));
  t.is((await limits()).identities_limit, DEFAULT_PLANS.enterprise.identities, 'a starter trial lowers nothing');
  t.like(await send({ type: 'subscription.canceled', eventId: 'evt_cancel', subscriptionReference: 'sub_chk_1', canceledAt: '2026-03-02T00:00:00.000Z' }), { outcome: 'handled' });
  right(await app.trials.cancel(principal, trial.id));
  t.like(await limits(), { identities_limit: DEFAULT_PLANS.starter.identities, api_calls_limit: DEFAULT_PLANS.starter.apiCallsPerMonth });
  t.like(right(await app.billing.subscription(principal)), { plan: 'enterprise', status: 'canceled' });
  t.is(await app.billing.planInForce(principal.orgId), 'starter');
});

test('limits in force: a pro organization starting a starter trial keeps its pro limits', async (t) => {
  const { app, principal, limits } = await setup('pro');
  right(await app.trials.start(principal, { plan: 'starter' }));
  t.like(await limits(), { identities_limit: 5_000, domains_limit: 10, api_calls_limit: 1_000_000 });
  t.true(E.isRight(await app.identities.bulkCreate(principal, { identities: Array.from({ length: 100 }, (_, i) => ({ label: `b${i}` })) })), 'the pro batch of 100');
});

for (const ending of ['canceled', 'expired past its grace'] as const) {
  test(`limits in force: a long-lived pro tenant whose starter trial is ${ending} never meets a limit below pro and keeps its identities`, async (t) => {
    const { app, clock, principal, limits } = await setup('pro');
    const made = right(await app.identities.bulkCreate(principal, { identities: Array.from({ length: 60 }, (_, i) => ({ label: `a${i}`, ttl_hours: 720 })) }));
    const trial = right(await app.trials.start(principal, { plan: 'starter' }));
    for (let i = 0; i < 2; i += 1) right(await app.domains.register(principal, { domain: `d${i}.${principal.orgId.slice(4)}.example` }));
    right(await app.identities.bulkCreate(principal, { identities: Array.from({ length: 60 }, (_, i) => ({ label: `b${i}`, ttl_hours: 720 })) }));
    if (ending === 'canceled') right(await app.trials.cancel(principal, trial.id));
    else {
      clock.advance(7 * DAY);
      t.like(await app.maintenance.tick('m'), { trialsExpired: 1 });
      clock.advance(3 * DAY);
      t.like(await app.maintenance.tick('m'), { trialsPurged: 1 });
    }
    t.like(await limits(), { identities_limit: 5_000, domains_limit: 10, active_identities: 120 });
    t.is(right(await app.identities.get(principal, made.items[0]!.id)).status, 'provisioned', 'nothing of its own is squashed');
    t.true(E.isRight(await app.identities.create(principal, { label: 'after' })));
  });
}

test('provider callbacks: the same callback twice at the same moment is applied once; later deliveries are duplicates', async (t) => {
  const { send, checkout, limits } = await setup('starter');
  const event = checkout('evt_twice', 'growth', 'chk_twice');
  const outcomes = (await Promise.all([send(event), send(event)])).map((o) => o.outcome).sort();
  t.deepEqual(outcomes, ['handled', 'in_progress']);
  t.like(await send(event), { outcome: 'duplicate' });
  t.is((await limits()).identities_limit, DEFAULT_PLANS.growth.identities);
});

test('provider callbacks: a checkout redelivered concurrently with the cancellation that followed it does not bring the subscription back', async (t) => {
  const { send, checkout, limits } = await setup('starter');
  const paid = checkout('evt_paid', 'pro', 'chk_race');
  t.like(await send(paid), { outcome: 'handled' });
  await Promise.all([send(paid), send({ type: 'subscription.canceled', eventId: 'evt_c', subscriptionReference: 'sub_chk_race', canceledAt: '2026-03-02T00:00:00.000Z' }), send(paid)]);
  t.is((await limits()).identities_limit, DEFAULT_PLANS.starter.identities);
});

/** One step of a billing history, as fast-check draws it. */
type Step =
  | { readonly kind: 'checkout'; readonly plan: PlanName; readonly twice: boolean }
  | { readonly kind: 'renew' | 'fail' | 'cancel' | 'trialCancel' | 'trialConvert' }
  | { readonly kind: 'trialStart'; readonly plan: PlanName }
  | { readonly kind: 'advance'; readonly hours: number }
  | { readonly kind: 'redeliver'; readonly pick: number; readonly concurrently: boolean };

const plan = fc.constantFrom(...PLAN_NAMES);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('checkout' as const), plan, twice: fc.boolean() }),
  fc.constantFrom<Step>({ kind: 'renew' }, { kind: 'fail' }, { kind: 'cancel' }, { kind: 'trialCancel' }, { kind: 'trialConvert' }),
  fc.record({ kind: fc.constant('trialStart' as const), plan: fc.constantFrom<PlanName>('starter', 'growth', 'pro') }),
  fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 120 }) }),
  fc.record({ kind: fc.constant('redeliver' as const), pick: fc.nat(), concurrently: fc.boolean() }),
);

/** What is true, kept by the test: the subscription the provider holds, and the trial. */
interface Truth {
  subscription: { ref: string; plan: PlanName; status: 'active' | 'past_due' | 'canceled' } | null;
  trial: { id: string; plan: PlanName; status: string; expiresAt: number; graceUntil: number } | null;
}

const RANK = (p: PlanName) => PLAN_NAMES.indexOf(p);

/** The rule, written out independently of the code under test. */
const expected = (truth: Truth, assigned: PlanName, now: number): PlanName => {
  const paid = truth.subscription !== null && truth.subscription.status !== 'canceled' ? truth.subscription.plan : assigned;
  const trial = truth.trial?.status === 'ACTIVE' && now < truth.trial.expiresAt ? truth.trial.plan : undefined;
  return trial !== undefined && RANK(trial) > RANK(paid) ? trial : paid;
};

test('limits in force: any interleaving of payments, cancellations, trials, their ends and repeated callbacks leaves the limits the rule gives', async (t) => {
  await fc.assert(
    fc.asyncProperty(plan, fc.array(step, { minLength: 1, maxLength: 14 }), async (assigned, steps) => {
      const { app, clock, principal, send, checkout, limits } = await setup(assigned);
      const truth: Truth = { subscription: null, trial: null };
      const sent: ProviderEvent[] = [];
      let n = 0;
      const deliver = async (event: ProviderEvent, twice = false) => {
        sent.push(event);
        await (twice ? Promise.all([send(event), send(event)]) : send(event));
      };
      for (const s of steps) {
        n += 1;
        const sub = truth.subscription;
        const trial = truth.trial;
        const now = clock.now().getTime();
        if (s.kind === 'checkout') {
          await deliver(checkout(`evt_${n}`, s.plan, `chk_${n}`), s.twice);
          truth.subscription = { ref: `sub_chk_${n}`, plan: s.plan, status: 'active' };
        } else if (s.kind === 'renew' && sub !== null) {
          await deliver({ type: 'subscription.renewed', eventId: `evt_${n}`, subscriptionReference: sub.ref, periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', invoice: { reference: `in_${n}`, amountCents: 1, currency: 'usd', periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', lines: [] } });
          if (sub.status !== 'canceled') sub.status = 'active';
        } else if (s.kind === 'fail' && sub !== null) {
          await deliver({ type: 'payment.failed', eventId: `evt_${n}`, subscriptionReference: sub.ref, reason: 'declined' });
          if (sub.status !== 'canceled') sub.status = 'past_due';
        } else if (s.kind === 'cancel' && sub !== null) {
          await deliver({ type: 'subscription.canceled', eventId: `evt_${n}`, subscriptionReference: sub.ref, canceledAt: clock.now().toISOString() });
          sub.status = 'canceled';
        } else if (s.kind === 'trialStart') {
          const started = await app.trials.start(principal, { plan: s.plan });
          if (E.isRight(started)) truth.trial = { id: started.right.id, plan: s.plan, status: 'ACTIVE', expiresAt: Date.parse(started.right.expires_at), graceUntil: Date.parse(started.right.expires_at) + 3 * DAY };
        } else if (s.kind === 'trialCancel' && trial !== null) {
          if (E.isRight(await app.trials.cancel(principal, trial.id))) trial.status = 'CANCELED';
        } else if (s.kind === 'trialConvert' && (trial?.status === 'ACTIVE' || trial?.status === 'EXPIRED') && now < trial.graceUntil) {
          // The service opens a trial's checkout only while it can be converted.
          await deliver(checkout(`evt_${n}`, trial.plan, trial.id));
          truth.subscription = { ref: `sub_${trial.id}`, plan: trial.plan, status: 'active' };
          trial.status = 'CONVERTED';
        } else if (s.kind === 'advance') {
          clock.advance(s.hours * HOUR);
          await app.maintenance.tick('m');
          if (trial?.status === 'ACTIVE' && clock.now().getTime() >= trial.expiresAt) trial.status = 'EXPIRED';
        } else if (s.kind === 'redeliver' && sent.length > 0) {
          const again = sent[s.pick % sent.length]!;
          await (s.concurrently ? Promise.all([send(again), send(again)]) : send(again));
        }
        const want = DEFAULT_PLANS[expected(truth, assigned, clock.now().getTime())];
        const got = await limits();
        if (got.identities_limit !== want.identities || got.api_calls_limit !== want.apiCallsPerMonth || got.domains_limit !== want.domains) {
          throw new Error(`after ${JSON.stringify(steps.slice(0, n))}: limits ${JSON.stringify(got)}, the rule says ${JSON.stringify(want)}`);
        }
      }
      await app.close();
    }),
    { numRuns: 150 },
  );
  t.pass();
});
