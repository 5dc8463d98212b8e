import test from 'ava';
import { HOUR_MS } from '../src/index.js';
import { right, setup, tagOf } from './support.js';

test('children: a child defaults to the parent TTL, is capped at the parent expiry and records lineage', async (t) => {
  const { app, clock, principal } = await setup();
  const parent = right(await app.identities.create(principal, { label: 'parent', ttl_hours: 10 }));
  clock.advance(4 * HOUR_MS);
  const child = right(await app.identities.createChild(principal, parent.id, { label: 'child' }));
  t.is(child.parent_id, parent.id);
  t.is(child.expires_at, parent.expires_at, 'capped: 10 h from now would outlive the parent');
  const short = right(await app.identities.createChild(principal, parent.id, { label: 'short', ttl_hours: 1 }));
  t.is(short.expires_at, '2026-03-01T17:00:00.000Z');
  const grandchild = right(await app.identities.createChild(principal, child.id, { label: 'grandchild' }));
  const lineage = right(await app.identities.lineage(principal, grandchild.id));
  t.is(lineage.root, parent.id);
  t.deepEqual(
    lineage.nodes.map((n) => [n.id, n.parent_id, n.depth]),
    [
      [parent.id, null, 0],
      ...[child, short].map((c) => [c.id, parent.id, 1]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
      [grandchild.id, child.id, 2],
    ],
  );
});

test('children: a squashed parent answers already squashed, an expired one identity_expired', async (t) => {
  const { app, clock, principal } = await setup();
  const squashed = right(await app.identities.create(principal, { label: 'p' }));
  right(await app.identities.squash(principal, squashed.id));
  t.is(tagOf(await app.identities.createChild(principal, squashed.id, { label: 'c' })), 'IdentityAlreadySquashed');
  const expiring = right(await app.identities.create(principal, { label: 'p', ttl_hours: 1 }));
  clock.advance(HOUR_MS);
  t.is(tagOf(await app.identities.createChild(principal, expiring.id, { label: 'c' })), 'IdentityExpired');
});

test('children: depth beyond 5 answers lineage_depth_exceeded', async (t) => {
  const { app, principal } = await setup();
  let current = right(await app.identities.create(principal, { label: 'd0' }));
  for (let depth = 1; depth <= 5; depth += 1) {
    current = right(await app.identities.createChild(principal, current.id, { label: `d${depth}` }));
  }
  t.is(tagOf(await app.identities.createChild(principal, current.id, { label: 'd6' })), 'LineageDepthExceeded');
});

test('children: revoke squashes every live descendant and leaves the parent and other trees live', async (t) => {
  const { app, principal } = await setup();
  const parent = right(await app.identities.create(principal, { label: 'p' }));
  const a = right(await app.identities.createChild(principal, parent.id, { label: 'a' }));
  const b = right(await app.identities.createChild(principal, parent.id, { label: 'b' }));
  const aa = right(await app.identities.createChild(principal, a.id, { label: 'aa' }));
  right(await app.identities.squash(principal, b.id));
  const sibling = right(await app.identities.createChild(principal, parent.id, { label: 'sibling-tree' }));
  const result = right(await app.identities.revokeChildren(principal, a.id));
  t.deepEqual(result.squashed, [aa.id]);
  const all = right(await app.identities.revokeChildren(principal, parent.id));
  t.deepEqual([...all.squashed].sort(), [a.id, sibling.id].sort());
  t.is(right(await app.identities.get(principal, parent.id)).status, 'provisioned');
  t.is(right(await app.identities.get(principal, a.id)).status, 'squashed');
});

test('children: squashing a parent leaves its children live', async (t) => {
  const { app, principal } = await setup();
  const parent = right(await app.identities.create(principal, { label: 'p' }));
  const child = right(await app.identities.createChild(principal, parent.id, { label: 'c' }));
  right(await app.identities.squash(principal, parent.id));
  t.is(right(await app.identities.get(principal, child.id)).status, 'provisioned');
});

test('bulk: creates the whole batch, and a batch over the plan size answers batch_too_large', async (t) => {
  const { app, principal } = await setup({ plan: 'starter' });
  const five = Array.from({ length: 5 }, (_, i) => ({ label: `b${i}`, ttl_hours: 2 }));
  const created = right(await app.identities.bulkCreate(principal, { identities: five }));
  t.is(created.items.length, 5);
  t.true(created.items.every((i) => i.status === 'provisioned'));
  const six = [...five, { label: 'b5' }];
  t.is(tagOf(await app.identities.bulkCreate(principal, { identities: six })), 'BatchTooLarge');
});

test('bulk: a batch that does not fit the quota creates nothing', async (t) => {
  const { app, principal } = await setup({ plan: 'starter' });
  const limit = app.deps.config.plans.starter.identities;
  for (let i = 0; i < limit - 3; i += 1) right(await app.identities.create(principal, { label: `f${i}` }));
  const batch = Array.from({ length: 5 }, (_, i) => ({ label: `b${i}` }));
  t.is(tagOf(await app.identities.bulkCreate(principal, { identities: batch })), 'QuotaExceeded');
  const page = right(await app.identities.list(principal, { limit: 200, offset: 0 }));
  t.is(page.total, limit - 3);
});

test('bulk squash: reports each id, success beside per-item failures', async (t) => {
  const { app, principal } = await setup();
  const a = right(await app.identities.create(principal, { label: 'a' }));
  const b = right(await app.identities.create(principal, { label: 'b' }));
  right(await app.identities.squash(principal, b.id));
  const other = await setup();
  const foreign = right(await other.app.identities.create(other.principal, { label: 'x' }));
  const result = right(await app.identities.bulkSquash(principal, [a.id, b.id, 'ident_missing', foreign.id]));
  t.deepEqual(result.squashed, [a.id]);
  t.deepEqual(
    result.failed.map((f) => [f.id, f.error._tag]),
    [
      [b.id, 'IdentityAlreadySquashed'],
      ['ident_missing', 'IdentityNotFound'],
      [foreign.id, 'IdentityNotFound'],
    ],
  );
});
