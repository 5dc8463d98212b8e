import { COLLECTIONS, labelPrefixRange, type FindQuery } from '@ephemail/core';
import test from 'ava';
import { createSqliteDocumentStore, openSqliteDatabase } from '../src/index.js';
import { orderClause, whereClause } from '../src/sql-query.js';

// Label search (GET /v1/identities?label=) against the indexes core declares: a walk of the
// label index between the prefix's bounds, in label order, never a scan of the project.
const db = openSqliteDatabase(':memory:');
const store = createSqliteDocumentStore(db);
test.before(() => store.init(COLLECTIONS));
test.after.always(() => store.close());

const plan = (query: FindQuery): string => {
  const indexed = new Set(COLLECTIONS.find((spec) => spec.name === 'identities')?.indexes.flat());
  const where = whereClause('identities', query, indexed);
  const sql =
    `EXPLAIN QUERY PLAN SELECT id, version, body FROM ephemail_documents WHERE ${where.sql} ` +
    `ORDER BY ${orderClause(query.sort, where.pinned, indexed)} LIMIT 50`;
  return db.prepare<unknown[], { detail: string }>(sql).all(...where.binds).map((row) => row.detail).join(' | ');
};

const search = (extra: Record<string, string> = {}): FindQuery => ({
  where: { org_id: 'o', project_id: 'p', ...extra },
  range: labelPrefixRange('signup'),
  sort: { field: 'label_key', direction: 'asc' },
});

test('sqlite store: a label search walks the label index between the prefix bounds, without a sort step', (t) => {
  const detail = plan(search());
  t.regex(detail, /USING INDEX ephemail_documents_identities_org_id_project_id_label_key_/, detail);
  t.regex(detail, /<expr>=\? AND <expr>=\? AND <expr>>=?\? AND <expr><\?/, detail);
  t.notRegex(detail, /TEMP B-TREE/, detail);
});

test('sqlite store: a label search with a status keeps to the label index and filters the matches', (t) => {
  const detail = plan(search({ status: 'active' }));
  t.regex(detail, /USING INDEX ephemail_documents_identities_org_id_project_id_label_key_/, detail);
  t.notRegex(detail, /TEMP B-TREE/, detail);
});
