import { createHash } from 'node:crypto';
import { assertSafeName, indexColumns } from './sql-fields.js';

/**
 * The one table that holds every collection. `id` and `version` are columns so the primary key
 * and the compare-and-set need no JSON; the fields the collection's indexes read are in `body`,
 * the others in `unindexed`, and a field of bytes in `bytes` as it is (see document-columns.ts).
 * A rowid table rather than WITHOUT ROWID because rows (whole messages) can be far larger than
 * SQLite's advice for the latter.
 */
export const createTableSql = (table: string): string =>
  `CREATE TABLE IF NOT EXISTS "${table}" (
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  version INTEGER NOT NULL,
  body TEXT NOT NULL,
  bytes BLOB,
  unindexed TEXT,
  PRIMARY KEY (collection, id)
)`;

/**
 * Adds a column that a table made by an earlier version lacks (`bytes`, `unindexed`). Both are
 * nullable, so no row is rewritten; `NULL` means what the rows of that version meant.
 */
export const addColumnSql = (table: string, column: 'bytes' | 'unindexed'): string =>
  `ALTER TABLE "${table}" ADD COLUMN ${column} ${column === 'bytes' ? 'BLOB' : 'TEXT'}`;

/**
 * The name of a compound index: readable, plus a digest of its exact definition so two specs whose
 * readable parts happen to coincide still get distinct indexes.
 */
const indexName = (table: string, collection: string, fields: readonly string[]): string => {
  const digest = createHash('sha256').update(JSON.stringify(['partial', collection, fields])).digest('hex');
  const readable = [collection, ...fields].join('_').replace(/[^a-z0-9_]/gi, '_').slice(0, 80);
  return `${table}_${readable}_${digest.slice(0, 10)}`;
};

/**
 * An expression index for one compound index of one collection, partial to that collection's
 * rows: a write then maintains only its own collection's indexes, not every index of the shared
 * table (measured: a create went from 2.0 ms to 0.55 ms of store time). Queries name the
 * collection as a literal (sql-query.ts) so the planner can match the partial index.
 */
export const createIndexSql = (table: string, collection: string, fields: readonly string[]): string =>
  `CREATE INDEX IF NOT EXISTS "${indexName(table, collection, fields)}" ON "${table}" ` +
  `(${indexColumns(fields).join(', ')}) WHERE collection = '${assertSafeName('collection', collection)}'`;

/** The name `createIndexSql` gives an index, for finding indexes that are no longer declared. */
export const declaredIndexName = indexName;
