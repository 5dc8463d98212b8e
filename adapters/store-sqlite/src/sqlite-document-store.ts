import type {
  CollectionSpec,
  DocumentStore,
  FindQuery,
  IncrementBounds,
  NewDocument,
  NewEntry,
  Plan,
  PlannedWrite,
  PlanRead,
  StoredDocument,
  UpdateOutcome,
} from '@ephemail/core';
import { incremented } from '@ephemail/core';
import type Database from 'better-sqlite3';
import type { BackgroundCheckpointer } from './background-checkpointer.js';
import { guarded } from './errors.js';
import { flushOpenBatches, GroupCommit } from './group-commit.js';
import { addBytesColumnSql, createIndexSql, createTableSql, declaredIndexName } from './schema.js';
import { assertSafeName } from './sql-fields.js';
import { orderClause, whereClause } from './sql-query.js';
import { StatementCache } from './statement-cache.js';

/** Options of {@link createSqliteDocumentStore}. */
export interface SqliteDocumentStoreOptions {
  /** The table that holds every collection's documents. Default `ephemail_documents`. */
  readonly table?: string;
  /** How many prepared statements to keep. Default 256. */
  readonly statementCacheSize?: number;
  /**
   * Commit the writes of one event-loop turn together (see group-commit.ts). Default true; false
   * makes every write its own autocommit statement (kept for measuring the difference).
   */
  readonly groupCommit?: boolean;
  /** A checkpointer of the same file (see background-checkpointer.ts), stopped when the store closes. */
  readonly checkpointer?: BackgroundCheckpointer;
}

interface Row {
  readonly id: string;
  readonly version: number;
  readonly body: string;
  readonly bytes: Buffer | null;
}

/** A document as its columns. */
interface Encoded {
  readonly body: string;
  readonly bytes: Uint8Array | null;
}

/**
 * Where `body` names the field whose value is in `bytes`. A name with a leading `$` is not a field
 * any document may have (MongoDB refuses them), so it cannot clash with one.
 */
const BYTES_FIELD = '$bytes';

/**
 * The document as its columns: `id` and `version` have columns of their own; a top-level field
 * holding a `Uint8Array` (at most one) goes into `bytes` as it is, and `body` (JSON) holds the
 * rest. Raw mail stored as text cost a string of it, JSON's escapes of every CR and LF and a UTF-8
 * copy (or base64 for 8-bit mail); bound as a blob, SQLite copies the bytes once.
 */
const encode = (doc: NewDocument): Encoded => {
  const { id: _id, version: _version, ...fields } = doc as NewDocument & Record<string, unknown>;
  if (Object.hasOwn(fields, BYTES_FIELD)) throw new TypeError(`sqlite store: top-level field ${BYTES_FIELD} is reserved by the store`);
  let name: string | undefined;
  for (const key in fields) {
    if (!(fields[key] instanceof Uint8Array)) continue;
    if (name !== undefined) throw new TypeError('sqlite store: a document may hold at most one field of bytes');
    name = key;
  }
  if (name === undefined) return { body: JSON.stringify(fields), bytes: null };
  const { [name]: bytes, ...rest } = fields;
  // Added to the fresh rest rather than spread into a new literal (ADR 0024).
  rest[BYTES_FIELD] = name;
  return { body: JSON.stringify(rest), bytes: bytes as Uint8Array };
};

const decode = (row: Row): StoredDocument => {
  const fields = JSON.parse(row.body) as Record<string, unknown>;
  if (row.bytes !== null && typeof fields[BYTES_FIELD] === 'string') {
    fields[fields[BYTES_FIELD]] = row.bytes;
    delete fields[BYTES_FIELD];
  }
  return { id: row.id, ...fields, version: row.version };
};

/**
 * {@link DocumentStore} on one SQLite database. Every write is a single statement, so
 * insert-if-absent (`ON CONFLICT DO NOTHING`) and compare-and-set (`UPDATE ... WHERE version = ?`)
 * stay atomic across connections and processes; SQLite serialises writers and the busy timeout
 * makes a contended writer wait instead of failing. The statements of one event-loop turn commit
 * together (group commit), and each answer is given only once its commit is done. Reads return
 * fresh objects parsed from JSON, so callers can never mutate stored state.
 */
export class SqliteDocumentStore implements DocumentStore {
  private readonly table: string;
  private readonly statements: StatementCache;
  private readonly batch: GroupCommit | undefined;
  private readonly checkpointer: BackgroundCheckpointer | undefined;
  /**
   * The fixed statements' text, built once: a string built per call would be hashed anew by the
   * statement cache's lookup every time.
   */
  private readonly sql: { readonly get: string; readonly version: string; readonly insert: string; readonly replace: string };
  private dataVersion: Database.Statement | undefined;

  constructor(
    private readonly db: Database.Database,
    options: SqliteDocumentStoreOptions = {},
  ) {
    this.table = assertSafeName('table name', options.table ?? 'ephemail_documents');
    const cacheSize = options.statementCacheSize ?? 256;
    if (!Number.isInteger(cacheSize) || cacheSize < 1) {
      throw new RangeError('sqlite store: statementCacheSize must be a positive integer');
    }
    this.statements = new StatementCache(db, cacheSize);
    this.sql = {
      get: `SELECT id, version, body, bytes FROM "${this.table}" WHERE collection = ? AND id = ?`,
      version: `SELECT version FROM "${this.table}" WHERE collection = ? AND id = ?`,
      insert: `INSERT INTO "${this.table}" (collection, id, version, body, bytes) VALUES (?, ?, 1, ?, ?) ON CONFLICT (collection, id) DO NOTHING`,
      replace: `UPDATE "${this.table}" SET version = version + 1, body = ?, bytes = ? WHERE collection = ? AND id = ? AND version = ?`,
    };
    this.batch = options.groupCommit === false ? undefined : new GroupCommit(db);
    this.checkpointer = options.checkpointer;
    // The table exists before init so every operation works on any collection, as in memory.
    guarded('create table', () => db.exec(createTableSql(this.table)));
    guarded('add bytes column', () => this.addBytesColumn());
  }

  /** A table made by a version before `bytes` gets the column (at once: it is nullable). */
  private addBytesColumn(): void {
    const hasBytes = () => (this.db.prepare(`PRAGMA table_info("${this.table}")`).all() as { name: string }[]).some((column) => column.name === 'bytes');
    if (hasBytes()) return;
    try {
      this.db.exec(addBytesColumnSql(this.table));
    } catch (error) {
      // Another connection added it first.
      if (!hasBytes()) throw error;
    }
  }

  async init(collections: readonly CollectionSpec[]): Promise<void> {
    flushOpenBatches();
    const declared = new Set(collections.flatMap((spec) => spec.indexes.map((fields) => declaredIndexName(this.table, spec.name, fields))));
    // Indexes of earlier versions (or of collections no longer declared) cost every write: drop them.
    const stale = (this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`).all(this.table) as { name: string }[])
      .map((row) => row.name)
      .filter((name) => !declared.has(name));
    const ddl = [
      ...stale.map((name) => `DROP INDEX IF EXISTS "${name}"`),
      ...collections.flatMap((spec) => spec.indexes.map((fields) => createIndexSql(this.table, spec.name, fields))),
    ];
    // IMMEDIATE takes the write lock up front (waiting out the busy timeout), so processes that
    // start together apply the IF NOT EXISTS statements one after the other.
    guarded('init', () => this.db.transaction(() => ddl.forEach((sql) => this.db.exec(sql))).immediate());
  }

  async get(collection: string, id: string): Promise<StoredDocument | undefined> {
    const sql = this.sql.get;
    const row = (await this.read('get', () => this.statements.get(sql).get(collection, id))) as Row | undefined;
    return row === undefined ? undefined : decode(row);
  }

  async insert<T extends NewDocument>(collection: string, doc: T): Promise<'inserted' | 'exists'> {
    const sql = this.sql.insert;
    const { body, bytes } = encode(doc);
    const result = await this.write('insert', () => this.statements.get(sql).run(collection, doc.id, body, bytes));
    return result.changes === 1 ? 'inserted' : 'exists';
  }

  /** A `transact` plan that reads nothing and inserts every document. */
  async insertAll<T extends NewDocument>(entries: readonly NewEntry<T>[]): Promise<'inserted' | 'exists'> {
    const writes = entries.map(({ collection, doc }): PlannedWrite => ({ kind: 'insert', collection, doc }));
    return (await this.transact(() => ({ writes, result: undefined }))).kind === 'written' ? 'inserted' : 'exists';
  }

  /**
   * Runs the plan, checks its writes and makes them, in one synchronous step on this connection
   * (inside the batch's transaction, or, without group commit, a transaction of its own): nothing
   * comes between, and every write is checked before the first is made, so no undo is needed. A
   * document the plan read is checked against the version it read (nothing wrote it since); any
   * other by one lookup. A savepoint would undo as well, but SQLite then copies each page the
   * writes touch into a sub-journal first (measured: a create through `insertAll` cost more than
   * through the outbox's extra write).
   */
  async transact<R>(plan: (read: PlanRead) => Plan<R>): Promise<{ readonly kind: 'written'; readonly result: R } | { readonly kind: 'conflict' }> {
    const { get: readSql, version: versionSql, insert, replace } = this.sql;
    let failure: { readonly error: unknown } | undefined;
    const step = (): { readonly kind: 'written'; readonly result: R } | { readonly kind: 'conflict' } | undefined => {
      const seen = new Map<string, number | undefined>();
      const read: PlanRead = (collection, id) => {
        const row = this.statements.get(readSql).get(collection, id) as Row | undefined;
        seen.set(`${collection}\n${id}`, row?.version);
        return row === undefined ? undefined : decode(row);
      };
      let planned: Plan<R>;
      try {
        planned = plan(read);
      } catch (error) {
        failure = { error };
        return undefined;
      }
      const written = new Set<string>();
      for (const write of planned.writes) {
        const key = `${write.collection}\n${write.doc.id}`;
        if (written.has(key)) return { kind: 'conflict' };
        written.add(key);
        const stored = seen.has(key) ? seen.get(key) : (this.statements.get(versionSql).get(write.collection, write.doc.id) as { version: number } | undefined)?.version;
        if (write.kind === 'replace' ? stored !== write.expectedVersion : stored !== undefined) return { kind: 'conflict' };
      }
      for (const write of planned.writes) {
        const { body, bytes } = encode(write.doc);
        if (write.kind === 'insert') this.statements.get(insert).run(write.collection, write.doc.id, body, bytes);
        else this.statements.get(replace).run(body, bytes, write.collection, write.doc.id, write.expectedVersion);
      }
      return { kind: 'written', result: planned.result };
    };
    const outcome = await this.writeStep('transact', step);
    if (failure !== undefined) throw failure.error;
    return outcome!;
  }

  async replace<T extends NewDocument>(collection: string, doc: T, expectedVersion: number): Promise<boolean> {
    const sql = this.sql.replace;
    const { body, bytes } = encode(doc);
    const run = () => this.statements.get(sql).run(body, bytes, collection, doc.id, expectedVersion);
    return (await this.write('replace', run)).changes === 1;
  }

  async update(
    collection: string,
    id: string,
    change: (current: StoredDocument) => NewDocument | undefined,
  ): Promise<UpdateOutcome | undefined> {
    const { get: read, replace } = this.sql;
    let failure: { readonly error: unknown } | undefined;
    // Read, change and write in one synchronous step on this connection (inside the batch's
    // transaction, or a transaction of its own): nothing can come between, so no race is lost.
    const step = (): UpdateOutcome | undefined => {
      const row = this.statements.get(read).get(collection, id) as Row | undefined;
      if (row === undefined) return undefined;
      let next: NewDocument | undefined;
      try {
        next = change(decode(row));
      } catch (error) {
        failure = { error };
        return undefined;
      }
      if (next === undefined) return { doc: decode(row), written: false };
      const { version: _version, ...fields } = next as NewDocument & { version?: number };
      const doc = Object.assign(fields, { id });
      const { body, bytes } = encode(doc);
      this.statements.get(replace).run(body, bytes, collection, id, row.version);
      return { doc: Object.assign(doc, { version: row.version + 1 }), written: true };
    };
    const outcome = await this.writeStep('update', step);
    if (failure !== undefined) throw failure.error;
    return outcome;
  }

  /**
   * Reads, adds and writes in one synchronous step on this connection (inside the batch's
   * transaction, or a transaction of its own), so no other write comes between and the reason
   * nothing changed describes one state of the document. Done in JavaScript rather than as one
   * `UPDATE ... json_set(...) RETURNING`: SQLite runs a statement with `RETURNING` through a
   * temporary table, and that statement cost 36 µs against 4 µs for this read and write.
   */
  async increment(
    collection: string,
    id: string,
    field: string,
    by: number,
    bounds: IncrementBounds = {},
  ): Promise<number | 'absent' | 'over_max'> {
    assertSafeName('field name', field);
    const { get: read, replace } = this.sql;
    const step = (): number | 'absent' | 'over_max' | 'not_number' => {
      const row = this.statements.get(read).get(collection, id) as Row | undefined;
      if (row === undefined) return 'absent';
      const fields = JSON.parse(row.body) as Record<string, unknown>;
      const next = incremented(fields[field], by, bounds);
      if (typeof next !== 'number') return next;
      fields[field] = next;
      // The body keeps its mark of the field of bytes, if any, and the bytes stay as they are.
      this.statements.get(replace).run(JSON.stringify(fields), row.bytes, collection, id, row.version);
      return next;
    };
    const outcome = await this.writeStep('increment', step);
    if (outcome === 'not_number') throw new TypeError(`sqlite store: ${collection}/${id}.${field} is not a number`);
    return outcome;
  }

  async remove(collection: string, id: string, expectedVersion?: number): Promise<boolean> {
    const base = `DELETE FROM "${this.table}" WHERE collection = ? AND id = ?`;
    const run =
      expectedVersion === undefined
        ? () => this.statements.get(base).run(collection, id)
        : () => this.statements.get(`${base} AND version = ?`).run(collection, id, expectedVersion);
    return (await this.write('remove', run)).changes === 1;
  }

  async find(collection: string, query: FindQuery): Promise<StoredDocument[]> {
    const where = whereClause(collection, query);
    const sql =
      `SELECT id, version, body, bytes FROM "${this.table}" WHERE ${where.sql} ` +
      `ORDER BY ${orderClause(query.sort, where.pinned)} LIMIT ? OFFSET ?`;
    // SQLite reads a negative LIMIT as "no limit".
    const binds = [...where.binds, query.limit ?? -1, query.offset ?? 0];
    const rows = (await this.read('find', () => this.statements.get(sql).all(...binds))) as Row[];
    return rows.map(decode);
  }

  async count(collection: string, query: Pick<FindQuery, 'where' | 'range'> = {}): Promise<number> {
    const where = whereClause(collection, query);
    const sql = `SELECT count(*) AS n FROM "${this.table}" WHERE ${where.sql}`;
    const row = (await this.read('count', () => this.statements.get(sql).get(...where.binds))) as { n: number };
    return row.n;
  }

  /**
   * SQLite's `data_version`: it moves when another connection (of this process or another)
   * commits, not when this one does. Costs a read lock and no page read.
   */
  changeMark(): number {
    this.dataVersion ??= this.db.prepare('PRAGMA data_version').pluck();
    return guarded('data version', () => this.dataVersion!.get() as number);
  }

  async ping(): Promise<void> {
    await this.read('ping', () => this.statements.get('SELECT 1').get());
  }

  async close(): Promise<void> {
    this.batch?.flush();
    this.statements.clear();
    guarded('close', () => this.db.close());
    await this.checkpointer?.stop();
  }

  private write<T>(operation: string, work: () => T): Promise<T> {
    if (this.batch !== undefined) return this.batch.write(operation, work);
    flushOpenBatches();
    return this.direct(operation, work);
  }

  /**
   * A write of several statements that must be one step: inside the batch's transaction, or,
   * without group commit, inside a transaction of its own.
   */
  private writeStep<T>(operation: string, step: () => T): Promise<T> {
    return this.write(operation, this.batch === undefined ? () => this.db.transaction(step).immediate() : step);
  }

  /** A value when it can answer at once (callers await it either way), else a promise. */
  private read<T>(operation: string, work: () => T): T | Promise<T> {
    return this.batch === undefined ? guarded(operation, work) : this.batch.read(operation, work);
  }

  private async direct<T>(operation: string, work: () => T): Promise<T> {
    return guarded(operation, work);
  }
}

/**
 * A {@link DocumentStore} on a database the host opened (see `openSqliteDatabase`). Creates the
 * documents table if it is missing; call `init` for the indexes.
 */
export const createSqliteDocumentStore = (
  db: Database.Database,
  options?: SqliteDocumentStoreOptions,
): SqliteDocumentStore => new SqliteDocumentStore(db, options);
