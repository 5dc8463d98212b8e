import test from 'ava';
import { HOUR_MS } from '../src/index.js';
import { OUTBOX_SWEEP_GRACE_MS } from '../src/store/outbox.js';
import { right, setup, tagOf } from './support.js';

test('lifecycle: create yields provisioned, expiring after the default 24 hours, with an event', async (t) => {
  const { app, principal } = await setup();
  const identity = right(await app.identities.create(principal, { label: 'signup test' }));
  t.is(identity.status, 'provisioned');
  t.regex(identity.id, /^ident_[A-Za-z0-9_-]{22,}$/);
  t.regex(identity.email, /^[a-z0-9]{14}@inbox\.test$/);
  t.is(identity.expires_at, '2026-03-02T12:00:00.000Z');
  const events = right(await app.events.list(principal, identity.id, { limit: 10, offset: 0 }));
  t.deepEqual(events.items.map((event) => event.type), ['identity.provisioned']);
});

test('lifecycle: ttl_hours and metadata are kept', async (t) => {
  const { app, principal } = await setup();
  const identity = right(await app.identities.create(principal, { label: 'x', ttl_hours: 2, metadata: { run: 7 } }));
  t.is(identity.expires_at, '2026-03-01T14:00:00.000Z');
  t.deepEqual(identity.metadata, { run: 7 });
});

test('lifecycle: a domain other than the inbox domain is refused as domain_not_found', async (t) => {
  const { app, principal } = await setup();
  t.is(tagOf(await app.identities.create(principal, { label: 'x', domain: 'elsewhere.test' })), 'DomainNotFound');
  t.is(tagOf(await app.identities.create(principal, { label: 'x', domain: 'INBOX.test' })), 'Right');
});

test('lifecycle: extend moves provisioned to extended and adds hours', async (t) => {
  const { app, principal } = await setup();
  const identity = right(await app.identities.create(principal, { label: 'x', ttl_hours: 1 }));
  const extended = right(await app.identities.extend(principal, identity.id, 5));
  t.is(extended.status, 'extended');
  t.is(extended.expires_at, '2026-03-01T18:00:00.000Z');
  const again = right(await app.identities.extend(principal, identity.id, 1));
  t.is(again.expires_at, '2026-03-01T19:00:00.000Z');
  const types = right(await app.events.list(principal, identity.id, { limit: 10, offset: 0 })).items.map((e) => e.type);
  t.deepEqual(types, ['identity.extended', 'identity.extended', 'identity.provisioned']);
});

test('lifecycle: squash is irreversible and a second squash or extend answers already squashed', async (t) => {
  const { app, principal } = await setup();
  const identity = right(await app.identities.create(principal, { label: 'x' }));
  t.is(right(await app.identities.squash(principal, identity.id)).status, 'squashed');
  t.is(tagOf(await app.identities.squash(principal, identity.id)), 'IdentityAlreadySquashed');
  t.is(tagOf(await app.identities.extend(principal, identity.id, 1)), 'IdentityAlreadySquashed');
  t.is(right(await app.identities.get(principal, identity.id)).status, 'squashed');
});

test('lifecycle: when expires_at passes the identity is expired, with one identity.expired event', async (t) => {
  const { app, clock, principal } = await setup();
  const identity = right(await app.identities.create(principal, { label: 'x', ttl_hours: 1 }));
  clock.advance(HOUR_MS - 1);
  t.is(right(await app.identities.get(principal, identity.id)).status, 'provisioned');
  clock.advance(1);
  t.is(right(await app.identities.get(principal, identity.id)).status, 'expired');
  t.is(right(await app.identities.get(principal, identity.id)).status, 'expired');
  const report = await app.maintenance.tick('worker-a');
  t.is(report.expired, 0, 'already expired by the read');
  const types = right(await app.events.list(principal, identity.id, { limit: 10, offset: 0 })).items.map((e) => e.type);
  t.deepEqual(types, ['identity.expired', 'identity.provisioned']);
});

test('lifecycle: extend and squash of an expired identity answer identity_expired', async (t) => {
  const { app, clock, principal } = await setup();
  const identity = right(await app.identities.create(principal, { label: 'x', ttl_hours: 1 }));
  clock.advance(2 * HOUR_MS);
  t.is(tagOf(await app.identities.extend(principal, identity.id, 1)), 'IdentityExpired');
  t.is(tagOf(await app.identities.squash(principal, identity.id)), 'IdentityExpired');
});

test('lifecycle: the maintenance job expires due identities once, whichever worker runs it', async (t) => {
  const { app, clock, principal } = await setup();
  const ids = [];
  for (let i = 0; i < 5; i += 1) ids.push(right(await app.identities.create(principal, { label: `x${i}`, ttl_hours: 1 })).id);
  clock.advance(HOUR_MS);
  const reports = await Promise.all([app.maintenance.tick('a'), app.maintenance.tick('b')]);
  t.is(reports.filter((r) => r.leader).length, 1);
  t.is(reports.reduce((sum, r) => sum + r.expired, 0), 5);
  for (const id of ids) {
    const types = right(await app.events.list(principal, id, { limit: 10, offset: 0 })).items.map((e) => e.type);
    t.deepEqual(types, ['identity.expired', 'identity.provisioned']);
  }
});

test('lifecycle: unknown ids and other tenants\u2019 ids both answer identity_not_found', async (t) => {
  const { app, principal } = await setup();
  const other = await setup();
  const foreign = right(await other.app.identities.create(other.principal, { label: 'theirs' }));
  t.is(tagOf(await app.identities.get(principal, 'ident_nope')), 'IdentityNotFound');
  const mine = right(await app.identities.create(principal, { label: 'mine' }));
  const { principal: stranger } = await setup();
  t.is(tagOf(await app.identities.get({ ...stranger }, mine.id)), 'IdentityNotFound');
  t.is(tagOf(await app.identities.get(principal, foreign.id)), 'IdentityNotFound');
});

test('lifecycle: list pages newest first and filters by status', async (t) => {
  const { app, clock, principal } = await setup();
  const made = [];
  for (let i = 0; i < 5; i += 1) {
    made.push(right(await app.identities.create(principal, { label: `n${i}` })));
    clock.advance(1000);
  }
  right(await app.identities.squash(principal, made[1]!.id));
  const page = right(await app.identities.list(principal, { limit: 2, offset: 1 }));
  t.is(page.total, 5);
  t.deepEqual(page.items.map((i) => i.label), ['n3', 'n2']);
  const squashed = right(await app.identities.list(principal, { status: 'squashed', limit: 50, offset: 0 }));
  t.deepEqual(squashed.items.map((i) => i.id), [made[1]!.id]);
});

test('quota: creation beyond the plan limit answers quota_exceeded and squash frees a place', async (t) => {
  const { app, principal } = await setup({ plan: 'starter' });
  const limit = app.deps.config.plans.starter.identities;
  const made = [];
  for (let i = 0; i < limit; i += 1) made.push(right(await app.identities.create(principal, { label: `q${i}` })));
  t.is(tagOf(await app.identities.create(principal, { label: 'one too many' })), 'QuotaExceeded');
  right(await app.identities.squash(principal, made[0]!.id));
  t.is(tagOf(await app.identities.create(principal, { label: 'fits again' })), 'Right');
});

test('quota: 30 parallel creations against 10 free places create exactly 10', async (t) => {
  const { app, principal } = await setup({ plan: 'starter' });
  const limit = app.deps.config.plans.starter.identities;
  for (let i = 0; i < limit - 10; i += 1) right(await app.identities.create(principal, { label: `f${i}` }));
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => app.identities.create(principal, { label: `p${i}` })));
  t.is(results.filter((r) => tagOf(r) === 'Right').length, 10);
  t.is(results.filter((r) => tagOf(r) === 'QuotaExceeded').length, 20);
});

test('lifecycle: a live status filter leaves out identities whose TTL elapsed before the job ran', async (t) => {
  const { app, clock, principal } = await setup();
  right(await app.identities.create(principal, { label: 'short', ttl_hours: 1 }));
  const long = right(await app.identities.create(principal, { label: 'long', ttl_hours: 5 }));
  clock.advance(2 * HOUR_MS);
  const page = right(await app.identities.list(principal, { status: 'provisioned', limit: 50, offset: 0 }));
  t.deepEqual(page.items.map((i) => i.id), [long.id]);
  t.is(page.total, 1);
});

test('lifecycle: maintenance flushes an outbox a crash left behind, once it is older than the grace period', async (t) => {
  const { app, clock, principal } = await setup();
  const identity = right(await app.identities.create(principal, { label: 'x' }));
  // A write that stored its event in the identity's outbox and died before flushing it.
  const event = { id: 'evt_crashed', type: 'identity.extended', identity_id: identity.id, org_id: principal.orgId, project_id: principal.projectId, occurred_at: clock.now().toISOString(), data: {}, seq: 2 };
  const stored = (await app.deps.store.get('identities', identity.id))!;
  const { version, ...rest } = stored;
  t.true(await app.deps.store.replace('identities', { ...rest, pending_events: [event], event_count: 2, has_pending: true }, version));
  t.is((await app.maintenance.tick('worker-a')).outboxesFlushed, 0, 'a fresh outbox belongs to a write in progress');
  clock.advance(OUTBOX_SWEEP_GRACE_MS);
  t.is((await app.maintenance.tick('worker-a')).outboxesFlushed, 1);
  const types = right(await app.events.list(principal, identity.id, { limit: 10, offset: 0 })).items.map((e) => e.type);
  t.deepEqual(types, ['identity.extended', 'identity.provisioned']);
  t.false((await app.deps.store.get('identities', identity.id))!.has_pending);
  t.is((await app.maintenance.tick('worker-a')).outboxesFlushed, 0, 'nothing left to flush');
});
