import type { CollectionSpec } from '@ephemail/core';
import type Database from 'better-sqlite3';
import { createIndexSql, declaredIndexName } from './schema.js';

/**
 * Which fields of each collection its indexes read, and so which fields a row keeps in `body`
 * (see document-columns.ts): as the database defines them, as a connection last saw them, and
 * as `init` changes them.
 */

const NONE: ReadonlySet<string> = new Set();

/** The fields each collection's declared indexes read (`id` and `version` are columns). */
const declaredFields = (collections: readonly CollectionSpec[]): Map<string, ReadonlySet<string>> => {
  const fields = new Map<string, Set<string>>();
  for (const spec of collections) {
    const set = fields.get(spec.name) ?? new Set<string>();
    for (const field of spec.indexes.flat()) if (field !== 'id' && field !== 'version') set.add(field);
    fields.set(spec.name, set);
  }
  return fields;
};

const PARTIAL_TO = /\bWHERE\s+collection\s*=\s*'([A-Za-z0-9_]+)'\s*$/;
const READS_FIELD = /\bbody\s*,\s*'\$\.([A-Za-z0-9_]+)'/g;

/** The table's indexes as the database defines them (the primary key's, which has no SQL, aside). */
const indexDefinitions = (db: Database.Database, table: string): { readonly name: string; readonly sql: string }[] =>
  db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`).all(table) as { name: string; sql: string }[];

/**
 * The fields the indexes in the database read, by collection, from their definitions: what every
 * connection must keep in `body`, whoever created the indexes. An index that is not partial to
 * one collection (made by an early version) reads its fields for every collection, under `*`.
 */
const indexedFieldsInSchema = (definitions: readonly { readonly sql: string }[]): Map<string, ReadonlySet<string>> => {
  const fields = new Map<string, Set<string>>();
  for (const { sql } of definitions) {
    const collection = PARTIAL_TO.exec(sql)?.[1] ?? '*';
    const set = fields.get(collection) ?? new Set<string>();
    for (const match of sql.matchAll(READS_FIELD)) set.add(match[1]!);
    fields.set(collection, set);
  }
  const everywhere = fields.get('*');
  if (everywhere !== undefined) for (const [collection, set] of fields) if (collection !== '*') everywhere.forEach((field) => set.add(field));
  return fields;
};

/** The set for `collection` in a map of fields by collection. */
const fieldsOf = (map: ReadonlyMap<string, ReadonlySet<string>>, collection: string): ReadonlySet<string> =>
  map.get(collection) ?? map.get('*') ?? NONE;

/**
 * The statements that move one field of a collection's split rows between the columns, for when
 * an index starts or stops reading it. Rows not split yet hold it in `body` either way.
 */
const moveFieldSql = (table: string) => ({
  toBody:
    `UPDATE "${table}" SET body = json_set(body, @path, unindexed -> @path), unindexed = json_remove(unindexed, @path) ` +
    `WHERE collection = @collection AND unindexed IS NOT NULL AND json_type(unindexed, @path) IS NOT NULL`,
  toUnindexed:
    `UPDATE "${table}" SET unindexed = json_set(unindexed, @path, body -> @path), body = json_remove(body, @path) ` +
    `WHERE collection = @collection AND unindexed IS NOT NULL AND json_type(body, @path) IS NOT NULL`,
});

/**
 * What a connection knows of the fields each collection's indexes read. Another connection (of
 * this process or another) may create or drop indexes at any time, and SQLite's schema cookie
 * moves with every change of the schema. Inside a transaction reading it costs 65 ns, so every
 * write checks it ({@link current}); outside one it costs 3.8 µs (a read lock of its own), so
 * queries use what the last write, `init` or the constructor saw ({@link known}). A query that
 * names a field indexed since still finds it (the expression for an unindexed field reads both
 * columns), only without the index. Only an index dropped by another connection's `init` (a newer
 * version of the host) could hide rows from a query here until this connection next writes, and
 * versions with different indexes cannot share a file anyway: each one's `init` drops the
 * other's indexes.
 */
export class IndexedFields {
  private readonly schemaVersion: Database.Statement;
  private fields: Map<string, ReadonlySet<string>> = new Map();
  private seen = -1;

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
  ) {
    this.schemaVersion = db.prepare('PRAGMA schema_version').pluck();
    this.refresh();
  }

  /** The fields as of the last look: what queries use. */
  known(collection: string): ReadonlySet<string> {
    return fieldsOf(this.fields, collection);
  }

  /** The fields as the database defines them now: what writes use, inside their transaction. */
  current(collection: string): ReadonlySet<string> {
    this.refresh();
    return this.known(collection);
  }

  /** Reads the index definitions again if the schema has changed since the last look. */
  refresh(): void {
    const version = this.schemaVersion.get() as number;
    if (version === this.seen) return;
    this.fields = indexedFieldsInSchema(indexDefinitions(this.db, this.table));
    this.seen = version;
  }
}

/**
 * What `init` does to the database, inside one transaction: it drops the indexes no collection
 * declares (those of earlier versions cost every write), moves each field an index starts or stops
 * reading between the columns, and creates the declared indexes. The statements are built here,
 * so that a bad name throws before any SQL runs.
 */
export const indexPlan = (table: string, collections: readonly CollectionSpec[]): ((db: Database.Database) => void) => {
  const declared = new Set(collections.flatMap((spec) => spec.indexes.map((fields) => declaredIndexName(table, spec.name, fields))));
  const wanted = declaredFields(collections);
  const create = collections.flatMap((spec) => spec.indexes.map((fields) => createIndexSql(table, spec.name, fields)));
  const move = moveFieldSql(table);
  return (db) => {
    const existing = indexDefinitions(db, table);
    const before = indexedFieldsInSchema(existing);
    for (const { name } of existing) if (!declared.has(name)) db.exec(`DROP INDEX IF EXISTS "${name}"`);
    // A field an index starts to read moves into `body` before the index is built from it; one
    // no index reads any more moves out, so that queries find it where they look.
    for (const collection of new Set([...before.keys(), ...wanted.keys()])) {
      if (collection === '*') continue;
      const [had, has] = [fieldsOf(before, collection), fieldsOf(wanted, collection)];
      for (const field of has) if (!had.has(field)) db.prepare(move.toBody).run({ path: `$.${field}`, collection });
      for (const field of had) if (!has.has(field)) db.prepare(move.toUnindexed).run({ path: `$.${field}`, collection });
    }
    create.forEach((sql) => db.exec(sql));
  };
};
