import test from 'ava';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../src/index.js';
import { PLAN_CACHE_MS, planLimitsOf } from '../src/billing/plan-in-force.js';

/** A service whose store counts reads of organization records. */
const counted = () => {
  const store = createMemoryDocumentStore();
  const reads = { organizations: 0 };
  const get = store.get.bind(store);
  store.get = async (collection, id) => {
    if (collection === 'organizations') reads.organizations += 1;
    return get(collection, id);
  };
  const app = createEphemail({ store, inboxDomain: 'inbox.test', clock: new FakeClock('2026-03-01T12:00:00.000Z') });
  return { app, store, reads };
};

test('plans: an organization plan read is kept for a second per process, then read again', async (t) => {
  const { app, store, reads } = counted();
  await app.init();
  await store.insert('organizations', { id: 'org_p', name: 'p', plan: 'starter', created_at: '2026-03-01T12:00:00.000Z' });
  t.is((await planLimitsOf(app.deps, 'org_p')).bulkBatchSize, 5);
  t.is((await planLimitsOf(app.deps, 'org_p')).bulkBatchSize, 5);
  t.is(reads.organizations, 1, 'the second ask within the second read nothing');
  const stored = (await store.get('organizations', 'org_p'))!;
  const { version, ...rest } = stored;
  t.true(await store.replace('organizations', { ...rest, plan: 'enterprise' }, version));
  await new Promise((resolve) => setTimeout(resolve, PLAN_CACHE_MS + 50));
  t.is((await planLimitsOf(app.deps, 'org_p')).bulkBatchSize, 200, 'a changed plan applies once the kept one is older than a second');
});

test('plans: an organization without a record gets the starter limits and is not kept', async (t) => {
  const { app, store, reads } = counted();
  await app.init();
  t.is((await planLimitsOf(app.deps, 'org_later')).identities, 50);
  await store.insert('organizations', { id: 'org_later', name: 'l', plan: 'pro', created_at: '2026-03-01T12:00:00.000Z' });
  t.is((await planLimitsOf(app.deps, 'org_later')).identities, 5_000, 'made a moment later, it counts at once');
  t.is(reads.organizations, 2);
});
