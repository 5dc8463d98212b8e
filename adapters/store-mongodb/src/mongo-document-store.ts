import {
  updateByCompareAndSet,
  type CollectionSpec,
  type DocumentStore,
  type FindQuery,
  type IncrementBounds,
  type NewDocument,
  type StoredDocument,
  type UpdateOutcome,
} from '@ephemail/core';
import { MongoServerError, type Collection, type Db, type Document, type WriteConcernSettings } from 'mongodb';
import { guarded, MongoStoreError } from './errors.js';
import { decodeDocument, encodeFields, fieldRef, RANK_FIELD } from './mongo-fields.js';
import { indexSpecs, syncIndexes } from './mongo-indexes.js';
import { toMongoFilter, toMongoSort } from './mongo-query.js';

/** Options of {@link createMongoDocumentStore}. */
export interface MongoDocumentStoreOptions {
  /** Server-side time limit of every operation but index builds, in milliseconds. Default 10 000. */
  readonly maxTimeMS?: number;
  /** Write concern of every write. Default `{ w: 'majority', wtimeoutMS: 10_000 }`. */
  readonly writeConcern?: WriteConcernSettings;
  /** Whether `close()` also closes `db.client`. Default `false`: the host owns the client. */
  readonly closeClient?: boolean;
}

/** {@link MongoDocumentStoreOptions} with every default filled in. */
export type ResolvedMongoDocumentStoreOptions = Required<MongoDocumentStoreOptions>;

/** The defaults of {@link MongoDocumentStoreOptions}. */
export const MONGO_STORE_DEFAULTS: ResolvedMongoDocumentStoreOptions = Object.freeze({
  maxTimeMS: 10_000,
  writeConcern: Object.freeze({ w: 'majority' as const, wtimeoutMS: 10_000 }),
  closeClient: false,
});

/** Fills in defaults and refuses settings under which compare-and-set cannot be trusted. */
export const resolveStoreOptions = (options: MongoDocumentStoreOptions = {}): ResolvedMongoDocumentStoreOptions => {
  const resolved = { ...MONGO_STORE_DEFAULTS, ...options };
  if (!Number.isInteger(resolved.maxTimeMS) || resolved.maxTimeMS < 1) {
    throw new RangeError('mongodb store: maxTimeMS must be a positive integer');
  }
  // An unacknowledged write answers nothing, so neither 'exists' nor a lost race could be told.
  if (resolved.writeConcern.w === 0) throw new RangeError('mongodb store: writeConcern w: 0 cannot report outcomes');
  return resolved;
};

const DUPLICATE_KEY = 11000;

/** Tries of an increment whose filter missed a document that then looked incrementable. */
const MAX_INCREMENT_ATTEMPTS = 20;

/** A document as stored: the port's id is `_id`, which keeps it unique without an extra index. */
type MongoRecord = Document & { _id: string; version: number };

/** Reads never return the shadow ranks. */
const PROJECTION = { [RANK_FIELD]: 0 };

/**
 * {@link DocumentStore} on a MongoDB database. Each collection of the port is a MongoDB
 * collection whose documents are `{ _id: id, version, ...fields, _rank }`. Every operation is
 * one single-document command, so atomicity rests on MongoDB's document-level guarantees alone:
 * insert-if-absent is `insertOne` against the unique `_id` index, compare-and-set is a
 * `replaceOne` or `deleteOne` filtered on `{ _id, version }`. Reads go to the primary, so a
 * read-modify-write sees the latest acknowledged version.
 */
export class MongoDocumentStore implements DocumentStore {
  /** The options in force, defaults included. */
  readonly options: ResolvedMongoDocumentStoreOptions;
  private closed = false;

  constructor(
    private readonly db: Db,
    options?: MongoDocumentStoreOptions,
  ) {
    this.options = resolveStoreOptions(options);
  }

  async init(collections: readonly CollectionSpec[]): Promise<void> {
    const work = collections.map((spec) => ({ collection: this.collection('init', spec.name), indexes: indexSpecs(spec) }));
    await guarded('init', () => Promise.all(work.map(({ collection, indexes }) => syncIndexes(collection, indexes))));
  }

  async get(collection: string, id: string): Promise<StoredDocument | undefined> {
    const target = this.collection('get', collection);
    const raw = await guarded('get', () => target.findOne({ _id: id }, { projection: PROJECTION, maxTimeMS: this.options.maxTimeMS }));
    return raw === null ? undefined : decodeDocument(raw);
  }

  async insert<T extends NewDocument>(collection: string, doc: T): Promise<'inserted' | 'exists'> {
    const stored = { ...encodeFields(doc, 1), _id: doc.id } as MongoRecord;
    const target = this.collection('insert', collection);
    return guarded('insert', async () => {
      try {
        await target.insertOne(stored, { maxTimeMS: this.options.maxTimeMS });
        return 'inserted';
      } catch (error) {
        // `_id` is the only unique index the store creates, so a duplicate key is this id.
        if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return 'exists';
        throw error;
      }
    });
  }

  async replace<T extends NewDocument>(collection: string, doc: T, expectedVersion: number): Promise<boolean> {
    const replacement = encodeFields(doc, expectedVersion + 1) as MongoRecord;
    const target = this.collection('replace', collection);
    const filter = { _id: doc.id, version: expectedVersion };
    const result = await guarded('replace', () => target.replaceOne(filter, replacement, { maxTimeMS: this.options.maxTimeMS }));
    return result.matchedCount === 1;
  }

  /** Read, change, then `replaceOne` on the version read; again after a lost race (core's backoff). */
  async update(
    collection: string,
    id: string,
    change: (current: StoredDocument) => NewDocument | undefined,
  ): Promise<UpdateOutcome | undefined> {
    return updateByCompareAndSet(this, collection, id, change);
  }

  async increment(
    collection: string,
    id: string,
    field: string,
    by: number,
    bounds: IncrementBounds = {},
  ): Promise<number | 'absent' | 'over_max'> {
    const ref = fieldRef(field);
    if (ref.kind !== 'ranked') throw new TypeError(`mongodb store: ${field} cannot be incremented`);
    const target = this.collection('increment', collection);
    // The field's shadow rank stays "number": only numbers match the filter, and a sum is one.
    const condition = bounds.max === undefined ? { $type: 'number' } : { $type: 'number', $lte: bounds.max - by };
    const sum = { $add: [`$${ref.path}`, by] };
    const next = bounds.floor === undefined ? sum : { $max: [bounds.floor, sum] };
    const update = [{ $set: { [ref.path]: next, version: { $add: ['$version', 1] } } }];
    const options = { returnDocument: 'after' as const, projection: { [ref.path]: 1 }, maxTimeMS: this.options.maxTimeMS };
    // Why nothing matched is read afterwards; a document created or changed in between is
    // simply tried again, so the answer always describes one state of the document.
    for (let attempt = 0; attempt < MAX_INCREMENT_ATTEMPTS; attempt += 1) {
      const after = await guarded('increment', () => target.findOneAndUpdate({ _id: id, [ref.path]: condition }, update, options));
      if (after !== null) return after[ref.path] as number;
      const current = await this.get(collection, id);
      if (current === undefined) return 'absent';
      const value = current[field];
      if (typeof value !== 'number') throw new TypeError(`mongodb store: ${collection}/${id}.${field} is not a number`);
      if (bounds.max !== undefined && value + by > bounds.max) return 'over_max';
    }
    throw new MongoStoreError('increment', new Error(`${collection}/${id} kept changing under ${MAX_INCREMENT_ATTEMPTS} attempts`));
  }

  async remove(collection: string, id: string, expectedVersion?: number): Promise<boolean> {
    const filter = expectedVersion === undefined ? { _id: id } : { _id: id, version: expectedVersion };
    const target = this.collection('remove', collection);
    const result = await guarded('remove', () => target.deleteOne(filter, { maxTimeMS: this.options.maxTimeMS }));
    return result.deletedCount === 1;
  }

  async find(collection: string, query: FindQuery): Promise<StoredDocument[]> {
    const filter = toMongoFilter(query);
    const sort = toMongoSort(query.sort);
    const target = this.collection('find', collection);
    // MongoDB reads a limit of 0 as "no limit"; the port means "nothing".
    if (query.limit !== undefined && query.limit <= 0) return [];
    const options = {
      projection: PROJECTION,
      sort,
      skip: query.offset ?? 0,
      ...(query.limit === undefined ? {} : { limit: query.limit }),
      maxTimeMS: this.options.maxTimeMS,
    };
    const raws = await guarded('find', () => target.find(filter, options).toArray());
    return raws.map(decodeDocument);
  }

  async count(collection: string, query: Pick<FindQuery, 'where' | 'range'> = {}): Promise<number> {
    const filter = toMongoFilter(query);
    const target = this.collection('count', collection);
    return guarded('count', () => target.countDocuments(filter, { maxTimeMS: this.options.maxTimeMS }));
  }

  async ping(): Promise<void> {
    this.assertOpen('ping');
    // Bounded by the client's server selection and socket timeouts: an outage rejects, never hangs.
    await guarded('ping', () => this.db.command({ ping: 1 }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.options.closeClient) await guarded('close', () => this.db.client.close());
  }

  private assertOpen(operation: string): void {
    if (this.closed) throw new MongoStoreError(operation, new Error('the store is closed'));
  }

  /**
   * A handle on one collection with the store's concerns pinned, whatever the client's defaults:
   * majority (by default) writes, primary reads, and undefined values left out as JSON would.
   * A field of bytes (a `Uint8Array`) is stored as BSON binary and read back as a `Buffer`.
   */
  private collection(operation: string, name: string): Collection<MongoRecord> {
    this.assertOpen(operation);
    return this.db.collection<MongoRecord>(name, {
      writeConcern: this.options.writeConcern,
      readPreference: 'primary',
      ignoreUndefined: true,
      promoteBuffers: true,
    });
  }
}

/**
 * A {@link DocumentStore} on a database of a client the host created (see `connectMongo` for the
 * recommended client settings). Call `init` at start-up for the indexes.
 */
export const createMongoDocumentStore = (db: Db, options?: MongoDocumentStoreOptions): MongoDocumentStore =>
  new MongoDocumentStore(db, options);
