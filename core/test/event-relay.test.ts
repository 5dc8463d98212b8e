import test from 'ava';
import type { EventRecord } from '../src/index.js';
import { relayTick } from '../src/index.js';
import { right, setup } from './support.js';

const positions = (events: readonly EventRecord[]) => events.map((e) => e.position);

test('relay: hands events in log order once per cursor, and keeps its cursor', async (t) => {
  const { app, principal } = await setup();
  for (let i = 0; i < 3; i += 1) right(await app.identities.create(principal, { label: `r${i}` }));
  const seen: EventRecord[] = [];
  const handle = async (events: readonly EventRecord[]) => void seen.push(...events);
  t.like(await relayTick(app.deps, 'test', 'a', handle), { leader: true, handled: 3, position: 3 });
  t.like(await relayTick(app.deps, 'test', 'a', handle), { handled: 0, position: 3 });
  right(await app.identities.create(principal, { label: 'late' }));
  await relayTick(app.deps, 'test', 'a', handle);
  t.deepEqual(positions(seen), [1, 2, 3, 4]);
  t.true(seen.every((e) => e.type === 'identity.provisioned'));
  const other: EventRecord[] = [];
  await relayTick(app.deps, 'other', 'a', async (events) => void other.push(...events));
  t.deepEqual(positions(other), [1, 2, 3, 4], 'each relay has its own cursor');
});

test('relay: a failing handler leaves the cursor, so the same events come again (at least once)', async (t) => {
  const { app, principal } = await setup();
  right(await app.identities.create(principal, { label: 'x' }));
  await t.throwsAsync(() => relayTick(app.deps, 'flaky', 'a', async () => Promise.reject(new Error('down'))));
  const again: EventRecord[] = [];
  await relayTick(app.deps, 'flaky', 'a', async (events) => void again.push(...events));
  t.deepEqual(positions(again), [1]);
});

test('relay: a hole in the log is waited for, then passed after the gap timeout', async (t) => {
  const { app, clock } = await setup();
  const event = (position: number) => ({ id: `evt_${position}`, type: 'identity.extended', identity_id: 'ident_x', seq: position, position, org_id: 'o', project_id: 'p', occurred_at: clock.now().toISOString(), data: {} });
  for (const position of [1, 2, 4, 5]) await app.deps.store.insert('events', event(position));
  const seen: EventRecord[] = [];
  const handle = async (events: readonly EventRecord[]) => void seen.push(...events);
  await relayTick(app.deps, 'gap', 'a', handle, { gapTimeoutMs: 5000 });
  t.deepEqual(positions(seen), [1, 2]);
  t.like(await relayTick(app.deps, 'gap', 'a', handle, { gapTimeoutMs: 5000 }), { handled: 0, waitingForGap: true });
  await app.deps.store.insert('events', event(3));
  await relayTick(app.deps, 'gap', 'a', handle, { gapTimeoutMs: 5000 });
  t.deepEqual(positions(seen), [1, 2, 3, 4, 5], 'the late writer filled the hole in time');
  for (const position of [7, 8]) await app.deps.store.insert('events', event(position));
  await relayTick(app.deps, 'gap', 'a', handle, { gapTimeoutMs: 5000 });
  clock.advance(5000);
  await relayTick(app.deps, 'gap', 'a', handle, { gapTimeoutMs: 5000 });
  t.deepEqual(positions(seen), [1, 2, 3, 4, 5, 7, 8], 'position 6 never came and was passed');
});

test('relay: only the lease holder runs a relay', async (t) => {
  const { app, principal } = await setup();
  right(await app.identities.create(principal, { label: 'x' }));
  const a = await relayTick(app.deps, 'solo', 'a', async () => {});
  const b = await relayTick(app.deps, 'solo', 'b', async () => {});
  t.true(a.leader);
  t.false(b.leader);
});

test('relay: two flushers racing on one outbox leave no hole in the log', async (t) => {
  const { app, principal } = await setup();
  const { flushOutbox } = await import('../src/store/outbox.js');
  const identity = right(await app.identities.create(principal, { label: 'race' }));
  // Put an event back into the outbox as a crash would leave it, then flush twice at once.
  const doc = (await app.deps.store.get('identities', identity.id))!;
  const [logged] = await app.deps.store.find('events', { where: { identity_id: identity.id } });
  const { version: _v, ...rest } = doc;
  const { position: _p, version: _ev, ...pending } = logged as Record<string, unknown>;
  await app.deps.store.replace('identities', { ...rest, pending_events: [pending], has_pending: true }, doc.version);
  await Promise.all([flushOutbox(app.deps, identity.id), flushOutbox(app.deps, identity.id)]);
  const seen: EventRecord[] = [];
  const report = await relayTick(app.deps, 'after-race', 'a', async (events) => void seen.push(...events), { gapTimeoutMs: 3_600_000 });
  t.false(report.waitingForGap, 'no position was left empty');
  t.is(seen.filter((e) => e.id === logged!.id).length, 1, 'the event is handed once');
  t.true(seen.every((e) => e.type !== 'log.gap'), 'gap markers never reach a handler');
});
