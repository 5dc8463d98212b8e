import test from 'ava';
import { iso, isoPlus } from '../../src/index.js';
import { newPrincipal } from '../support.js';
import { downloaded, EXPORT_SCOPES, logEvent, rightOf, setupExports, storeExtraction } from './support.js';

test('exports: an identities export holds the project\'s identities of the range, oldest first, as the API shows them', async (t) => {
  const { app, clock, principal } = await setupExports();
  const stranger = await newPrincipal(app, { scopes: EXPORT_SCOPES });
  rightOf(await app.identities.create(principal, { label: 'before the range' }));
  clock.advance(60_000);
  const start = iso(clock.now());
  const mine = [];
  for (const label of ['=cmd|calc', 'second, with comma', 'third "quoted"']) {
    mine.push(rightOf(await app.identities.create(principal, { label, metadata: { plan: 'x' } })));
    rightOf(await app.identities.create(stranger, { label: 'not mine' }));
    clock.advance(1000);
  }
  const created = rightOf(await app.exports.create(principal, { type: 'identities', format: 'json', date_range: { start, end: iso(clock.now()) } }));
  t.like(await app.exports.jobsTick('w1'), { completed: 1 });
  const ready = rightOf(await app.exports.get(principal, created.id));
  t.like(ready, { status: 'ready', row_count: 3, download_available: true });
  const rows = JSON.parse(await downloaded(app, ready)) as unknown[];
  const shown = await Promise.all(mine.map(async (identity) => rightOf(await app.identities.get(principal, identity.id))));
  t.deepEqual(rows, shown);
});

test('exports: CSV has a header, one row per item, JSON as text for objects, and the formula guard', async (t) => {
  const { app, clock, principal } = await setupExports();
  const start = iso(clock.now());
  const identity = rightOf(await app.identities.create(principal, { label: '=HYPERLINK("http://x.example")', metadata: { a: 1 } }));
  const created = rightOf(await app.exports.create(principal, { type: 'identities', format: 'csv', date_range: { start, end: iso(clock.now()) } }));
  await app.exports.jobsTick('w1');
  const text = await downloaded(app, rightOf(await app.exports.get(principal, created.id)));
  t.is(
    text,
    'id,email,label,status,created_at,expires_at,parent_id,metadata\r\n' +
      `${identity.id},${identity.email},"'=HYPERLINK(""http://x.example"")",provisioned,${identity.created_at},${identity.expires_at},,"{""a"":1}"\r\n`,
  );
});

test('exports: an identity whose TTL ran out reads as expired, as the API would show it', async (t) => {
  const { app, clock, principal } = await setupExports();
  const start = iso(clock.now());
  rightOf(await app.identities.create(principal, { label: 'short', ttl_hours: 1 }));
  clock.advance(2 * 3_600_000);
  const created = rightOf(await app.exports.create(principal, { type: 'identities', format: 'json', date_range: { start, end: iso(clock.now()) } }));
  await app.exports.jobsTick('w1');
  const rows = JSON.parse(await downloaded(app, rightOf(await app.exports.get(principal, created.id)))) as { status: string }[];
  t.deepEqual(rows.map((r) => r.status), ['expired']);
});

test('exports: extractions carry redacted values only, never the raw code', async (t) => {
  const { app, store, clock, principal } = await setupExports();
  await storeExtraction(store, principal, iso(clock.now()), '493817');
  for (const format of ['json', 'csv'] as const) {
    const created = rightOf(await app.exports.create(principal, { type: 'extractions', format }));
    await app.exports.jobsTick('w1');
    const text = await downloaded(app, rightOf(await app.exports.get(principal, created.id)));
    t.false(text.includes('493817'), format);
    t.true(text.includes('4•••7'), format);
  }
});

test('exports: events page by (occurred_at, id) through ties larger than a page, each once and in order', async (t) => {
  const { app, store, clock, principal } = await setupExports({ pageSize: 3 });
  const base = Date.parse('2026-02-20T00:00:00.000Z');
  const logged = [];
  // 7 events in one millisecond (more than two pages of ties), and others around them.
  for (let i = 0; i < 4; i += 1) logged.push(await logEvent(store, principal, isoPlus(new Date(base), i)));
  for (let i = 0; i < 7; i += 1) logged.push(await logEvent(store, principal, isoPlus(new Date(base), 3)));
  for (let i = 4; i < 9; i += 1) logged.push(await logEvent(store, principal, isoPlus(new Date(base), i)));
  await logEvent(store, { orgId: principal.orgId, projectId: 'proj_other' }, isoPlus(new Date(base), 5));
  await logEvent(store, principal, '2026-01-01T00:00:00.000Z');
  const created = rightOf(await app.exports.create(principal, { type: 'events', format: 'json', date_range: { start: '2026-02-01', end: iso(clock.now()) } }));
  await app.exports.jobsTick('w1');
  const rows = JSON.parse(await downloaded(app, rightOf(await app.exports.get(principal, created.id)))) as { id: string; occurred_at: string; data: unknown }[];
  const expected = [...logged].sort((a, b) => (a.occurred_at === b.occurred_at ? (a.id < b.id ? -1 : 1) : a.occurred_at < b.occurred_at ? -1 : 1));
  t.deepEqual(rows.map((r) => r.id), expected.map((e) => e.id));
  t.deepEqual(Object.keys(rows[0]!), ['id', 'type', 'identity_id', 'occurred_at', 'data']);
});

test('exports: an empty range gives an empty file that is still valid (JSON [] and a CSV header)', async (t) => {
  const { app, principal } = await setupExports();
  const json = rightOf(await app.exports.create(principal, { type: 'events', format: 'json' }));
  const csv = rightOf(await app.exports.create(principal, { type: 'events', format: 'csv' }));
  await app.exports.jobsTick('w1', { max: 2 });
  const jsonView = rightOf(await app.exports.get(principal, json.id));
  t.like(jsonView, { status: 'ready', row_count: 0, file_size_bytes: 3 });
  t.deepEqual(JSON.parse(await downloaded(app, jsonView)), []);
  t.is(await downloaded(app, rightOf(await app.exports.get(principal, csv.id))), 'id,type,identity_id,occurred_at,data\r\n');
});

test('exports: without a CSV encoder a CSV export fails with a reason, and JSON still works', async (t) => {
  const { app, principal } = await setupExports({ csv: undefined });
  const created = rightOf(await app.exports.create(principal, { type: 'events', format: 'csv' }));
  t.like(await app.exports.jobsTick('w1'), { failed: 1 });
  t.like(rightOf(await app.exports.get(principal, created.id)), { status: 'failed', error: 'This host has no CSV encoder configured; export as json instead.' });
  const json = rightOf(await app.exports.create(principal, { type: 'events', format: 'json' }));
  t.like(await app.exports.jobsTick('w1'), { completed: 1 });
  t.like(rightOf(await app.exports.get(principal, json.id)), { status: 'ready' });
});

test('exports: a page is written in slices, and the file stays one valid document across them', async (t) => {
  const { app, store, principal } = await setupExports();
  for (let i = 0; i < 150; i += 1) await logEvent(store, principal, isoPlus(new Date('2026-02-20T00:00:00.000Z'), i * 1000), { n: i });
  const json = rightOf(await app.exports.create(principal, { type: 'events', format: 'json' }));
  const csv = rightOf(await app.exports.create(principal, { type: 'events', format: 'csv' }));
  await app.exports.jobsTick('w1', { max: 2 });
  const rows = JSON.parse(await downloaded(app, rightOf(await app.exports.get(principal, json.id)))) as { data: { n: number } }[];
  t.deepEqual(rows.map((r) => r.data.n), Array.from({ length: 150 }, (_, i) => i));
  const lines = (await downloaded(app, rightOf(await app.exports.get(principal, csv.id)))).split('\r\n');
  t.is(lines.length, 152);
  t.is(lines[0], 'id,type,identity_id,occurred_at,data');
  t.is(lines[151], '');
});
