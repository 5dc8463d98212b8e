import type { FindQuery } from '@ephemail/core';
import test from 'ava';
import { createSqliteDocumentStore, openSqliteDatabase } from '../src/index.js';
import { orderClause, whereClause } from '../src/sql-query.js';

const db = openSqliteDatabase(':memory:');
const store = createSqliteDocumentStore(db);
test.after.always(() => store.close());

const collections = [
  { name: 'events', indexes: [['org_id', 'project_id', 'occurred_at'], ['has_pending'], ['expires_at']] },
  { name: 'identities', indexes: [['status', 'expires_at'], ['has_pending']] },
];

const plan = (query: FindQuery, collection = 'events'): string => {
  // The fields the collection's indexes read, as the store passes them.
  const indexed = new Set(collections.find((spec) => spec.name === collection)?.indexes.flat());
  const where = whereClause(collection, query, indexed);
  const sql =
    `EXPLAIN QUERY PLAN SELECT id, version, body FROM ephemail_documents WHERE ${where.sql} ` +
    `ORDER BY ${orderClause(query.sort, where.pinned, indexed)} LIMIT 50`;
  const rows = db.prepare<unknown[], { detail: string }>(sql).all(...where.binds);
  return rows.map((row) => row.detail).join(' | ');
};

// The queries core makes most: a time window or a cursor under equality filters, newest first.
const queries: Record<string, FindQuery> = {
  'a time window under two equality filters': {
    where: { org_id: 'o', project_id: 'p' },
    range: { field: 'occurred_at', gte: '2026-01-01', lt: '2026-02-01' },
    sort: { field: 'occurred_at', direction: 'desc' },
  },
  'a cursor after a timestamp': {
    where: { org_id: 'o', project_id: 'p' },
    range: { field: 'occurred_at', gt: '2026-01-01' },
    sort: { field: 'occurred_at', direction: 'asc' },
  },
  'a sort under equality filters': {
    where: { org_id: 'o', project_id: 'p' },
    sort: { field: 'occurred_at', direction: 'desc' },
  },
  'a boolean equality filter': { where: { has_pending: true } },
  // What maintenance asks for (due identities, stale idempotency keys): strings up to now, with
  // '' as the lower bound so the range pins the type.
  'everything due by now': {
    range: { field: 'expires_at', gte: '', lte: '2026-03-01T00:00:00.000Z' },
    sort: { field: 'expires_at', direction: 'asc' },
  },
};

test.before(() => store.init(collections));

for (const [title, query] of Object.entries(queries)) {
  test(`sqlite store: ${title} is answered from an expression index without a sort step`, (t) => {
    const detail = plan(query);
    t.regex(detail, /USING INDEX ephemail_documents_events_/, detail);
    t.notRegex(detail, /TEMP B-TREE/, detail);
  });
}

test('sqlite store: both ends of a time window bound the index walk', (t) => {
  const detail = plan(queries['a time window under two equality filters'] as FindQuery);
  t.regex(detail, /<expr>=\? AND <expr>>=?\? AND <expr><\?/, detail);
});

test('sqlite store: a due-by-now range walks the index between its bounds, not every key', (t) => {
  const detail = plan(queries['everything due by now'] as FindQuery);
  t.regex(detail, /\(<expr>=\? AND <expr>>\? AND <expr><\?\)/, detail);
  // A one-sided range cannot pin the type: the walk then covers every key of the index.
  t.notRegex(plan({ range: { field: 'expires_at', lte: '2026-03-01T00:00:00.000Z' }, sort: { field: 'expires_at', direction: 'asc' } }), /<expr>=\?/);
});

test('sqlite store: a membership filter seeks each value and keeps the range on the next field', (t) => {
  // The expiry sweep: live statuses, due by now. Written as an OR of equalities, the seek stopped
  // at the status's type rank and walked every live row.
  const detail = plan({
    where: { status: { in: ['provisioned', 'active'] } },
    range: { field: 'expires_at', gte: '', lte: '2026-03-01T00:00:00.000Z' },
    sort: { field: 'expires_at', direction: 'asc' },
  }, 'identities');
  t.regex(detail, /USING INDEX ephemail_documents_identities_status_expires_at_/, detail);
  t.regex(detail, /\(<expr>=\? AND <expr>=\? AND <expr>=\? AND <expr>>\? AND <expr><\?\)/, detail);
});
