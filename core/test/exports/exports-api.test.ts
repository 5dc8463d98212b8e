import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { newPrincipal, tagOf } from '../support.js';
import { EXPORT_SCOPES, rightOf, setupExports } from './support.js';

test('exports: creation answers the pending export, and by default the 90 days up to now', async (t) => {
  const { app, principal } = await setupExports();
  const created = rightOf(await app.exports.create(principal, { type: 'events', format: 'csv' }));
  t.regex(created.id, /^exp_[A-Za-z0-9_-]{22,}$/);
  t.deepEqual(created, {
    id: created.id,
    type: 'events',
    format: 'csv',
    status: 'pending',
    date_range: { start: '2025-12-01T12:00:00.000Z', end: '2026-03-01T12:00:00.000Z' },
    created_at: '2026-03-01T12:00:00.000Z',
  });
  t.deepEqual(rightOf(await app.exports.get(principal, created.id)), created);
});

test('exports: a type or format outside the allowed set answers the spec codes', async (t) => {
  const { app, principal } = await setupExports();
  const type = await app.exports.create(principal, { type: 'messages', format: 'csv' });
  t.like(type, { left: { _tag: 'InvalidExportType', type: 'messages', allowed: ['identities', 'events', 'extractions'] } });
  const format = await app.exports.create(principal, { type: 'events', format: 'xlsx' });
  t.like(format, { left: { _tag: 'InvalidFormat', format: 'xlsx', allowed: ['json', 'csv'] } });
});

test('exports: more than 90 days is too large; exactly 90 days, and 90 calendar days of dates, are not', async (t) => {
  const { app, principal } = await setupExports({ maxConcurrent: 10 });
  const create = (start: string, end: string) => app.exports.create(principal, { type: 'identities', format: 'json', date_range: { start, end } });
  t.like(await create('2026-01-01T00:00:00Z', '2026-04-01T00:00:00.001Z'), { left: { _tag: 'DateRangeTooLarge', maxDays: 90 } });
  t.like(await create('2026-01-01', '2026-04-01'), { left: { _tag: 'DateRangeTooLarge' } });
  t.like(await create('2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z'), { right: { status: 'pending' } });
  // Dates alone: the end date's whole day is in the range.
  t.like(await create('2026-01-01', '2026-03-31'), { right: { date_range: { start: '2026-01-01T00:00:00.000Z', end: '2026-03-31T23:59:59.999Z' } } });
  t.like(await create('2026-03-01T14:00:00+02:00', '2026-03-01T12:00:00Z'), { right: { date_range: { start: '2026-03-01T12:00:00.000Z', end: '2026-03-01T12:00:00.000Z' } } });
});

test('exports: unparseable bounds and an end before the start are refused, naming the field', async (t) => {
  const { app, principal } = await setupExports();
  const create = (start: string, end: string) => app.exports.create(principal, { type: 'events', format: 'json', date_range: { start, end } });
  for (const [start, end, path] of [
    ['yesterday', '2026-03-01', 'body.date_range.start'],
    ['2026-02-01', '2026-02-30', 'body.date_range.end'],
    ['2026-02-01T10:00:00', '2026-02-02', 'body.date_range.start'],
    ['2026-02-01', '2026-02-02T25:00:00Z', 'body.date_range.end'],
    ['2026-02-10', '2026-02-01', 'body.date_range.end'],
  ] as const) {
    const answer = await create(start, end);
    t.is(tagOf(answer), 'InvalidRequest', `${start}..${end}`);
    if (E.isLeft(answer) && answer.left._tag === 'InvalidRequest') t.deepEqual(answer.left.issues.map((i) => i.path), [path]);
  }
  t.is(tagOf(await create('nope', 'never')), 'InvalidRequest');
});

test('exports: of ten creations at once at a limit of 3, exactly 3 are queued; other organizations are not held back', async (t) => {
  const { app, principal } = await setupExports({ maxConcurrent: 3 });
  const answers = await Promise.all(Array.from({ length: 10 }, () => app.exports.create(principal, { type: 'events', format: 'json' })));
  t.is(answers.filter(E.isRight).length, 3);
  t.true(answers.filter(E.isLeft).every((a) => E.isLeft(a) && a.left._tag === 'ExportQuotaExceeded' && a.left.limit === 3));
  const other = await newPrincipal(app, { scopes: EXPORT_SCOPES });
  t.true(E.isRight(await app.exports.create(other, { type: 'events', format: 'json' })));
});

test('exports: a finished export gives its place back, so the organization may start another', async (t) => {
  const { app, principal } = await setupExports({ maxConcurrent: 1 });
  rightOf(await app.exports.create(principal, { type: 'identities', format: 'json' }));
  t.is(tagOf(await app.exports.create(principal, { type: 'identities', format: 'json' })), 'ExportQuotaExceeded');
  t.like(await app.exports.jobsTick('w1'), { completed: 1 });
  t.true(E.isRight(await app.exports.create(principal, { type: 'identities', format: 'json' })));
});

test("exports: another project's export answers exactly like an unknown id", async (t) => {
  const { app, principal } = await setupExports();
  const created = rightOf(await app.exports.create(principal, { type: 'events', format: 'csv' }));
  const stranger = await newPrincipal(app, { scopes: EXPORT_SCOPES });
  t.deepEqual(await app.exports.get(stranger, created.id), E.left({ _tag: 'ExportNotFound', id: created.id }));
  t.deepEqual(await app.exports.get(principal, 'exp_unknown'), E.left({ _tag: 'ExportNotFound', id: 'exp_unknown' }));
  const sameOrgOtherProject = { ...principal, projectId: 'proj_other' };
  t.is(tagOf(await app.exports.get(sameOrgOtherProject, created.id)), 'ExportNotFound');
});
