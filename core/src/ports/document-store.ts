/**
 * The one storage primitive every ephemail store implements (ARCHITECTURE rule 5).
 *
 * Repositories in core are built on these few operations, so a new backend only has to get
 * these right, and the contract suite in `test/` proves it. Every operation touches a single
 * document, which is the atomicity floor of the scale-out store (rule 6).
 */

/** A value that can be compared in a filter or range, and indexed by every backend. */
export type Scalar = string | number | boolean | null;

/**
 * A stored document. `id` is unique within its collection. `version` starts at 1 on insert and
 * grows by one on every successful {@link DocumentStore.replace}; it is the compare-and-set token.
 * Other fields are JSON values, except that one top-level field may hold bytes (a `Uint8Array`):
 * the store keeps them as bytes and reads them back as a `Uint8Array` (a `Buffer` in Node). A
 * field of bytes is never queried, sorted on or indexed. Raw mail is stored this way.
 */
export interface StoredDocument {
  readonly id: string;
  readonly version: number;
  readonly [field: string]: unknown;
}

/**
 * A document before it is stored: any JSON object with an `id`; the store assigns `version`.
 * (No index signature, so records declared as interfaces can be passed as they are.)
 */
export type NewDocument = { readonly id: string };

/** Equality on top-level fields; `{ in: [...] }` matches any of the listed values. */
export type Filter = Readonly<Record<string, Scalar | { readonly in: readonly Scalar[] }>>;

/** A range on one top-level field. Strings compare by code unit (ISO timestamps sort by time). */
export interface RangeCondition {
  readonly field: string;
  readonly gt?: Scalar;
  readonly gte?: Scalar;
  readonly lt?: Scalar;
  readonly lte?: Scalar;
}

export interface FindQuery {
  readonly where?: Filter;
  readonly range?: RangeCondition;
  /** Sort by one field; ties are always broken by `id` in the same direction. Default: `id` asc. */
  readonly sort?: { readonly field: string; readonly direction: 'asc' | 'desc' };
  /** At most this many documents; no limit when absent. */
  readonly limit?: number;
  readonly offset?: number;
}

/** The collections a store must be ready for, and which field combinations are queried together. */
export interface CollectionSpec {
  readonly name: string;
  /** Each entry is a compound index, in order: equality fields first, then the range or sort field. */
  readonly indexes: readonly (readonly string[])[];
}

/** Limits of {@link DocumentStore.increment}. */
export interface IncrementBounds {
  /** The change is refused (`'over_max'`) when the result would be greater than this. */
  readonly max?: number;
  /** A result smaller than this is stored as this instead (a counter that never goes below 0). */
  readonly floor?: number;
}

/** One document of an {@link DocumentStore.insertAll} and the collection it goes to. */
export interface NewEntry<T extends NewDocument = NewDocument> {
  readonly collection: string;
  readonly doc: T;
}

/** One write of a {@link DocumentStore.transact} plan. */
export type PlannedWrite =
  | { readonly kind: 'insert'; readonly collection: string; readonly doc: NewDocument }
  /** Compare-and-set, as {@link DocumentStore.replace}: only when the stored version is `expectedVersion`. */
  | { readonly kind: 'replace'; readonly collection: string; readonly doc: NewDocument; readonly expectedVersion: number };

/** What a {@link DocumentStore.transact} plan answers: the writes to make, and what to tell its caller. */
export interface Plan<R> {
  readonly writes: readonly PlannedWrite[];
  readonly result: R;
}

/** Reads one document inside a {@link DocumentStore.transact} step: a copy, or `undefined`. */
export type PlanRead = (collection: string, id: string) => StoredDocument | undefined;

/** What {@link DocumentStore.update} answers for a document that exists. */
export interface UpdateOutcome {
  /** The document as stored after the update (with its version), or as found when nothing was written. */
  readonly doc: StoredDocument;
  readonly written: boolean;
}

export interface DocumentStore {
  /**
   * Prepares the collections and indexes. Idempotent: safe to call on every start-up, from any
   * number of processes at once.
   */
  init(collections: readonly CollectionSpec[]): Promise<void>;

  /** The document with this id, or `undefined` when there is none. */
  get(collection: string, id: string): Promise<StoredDocument | undefined>;

  /**
   * Inserts the document with `version: 1` unless a document with the same id exists.
   * Atomic: of N concurrent inserts of one id, exactly one answers `'inserted'`.
   */
  insert<T extends NewDocument>(collection: string, doc: T): Promise<'inserted' | 'exists'>;

  /**
   * Optional. Inserts several documents, of one collection or several, as one atomic step: all of
   * them with `version: 1`, or, when any id is already taken in its collection (two entries of
   * the list included), none of them, answering `'exists'`. No reader sees some without the
   * others. Core uses it to write a new record together with its first event, which saves the
   * outbox's second write of the record; a store that cannot make several documents atomic leaves
   * it out, and core writes through the outbox instead.
   */
  insertAll?<T extends NewDocument>(docs: readonly NewEntry<T>[]): Promise<'inserted' | 'exists'>;

  /**
   * Optional. Reads and writes several documents as one atomic step. `plan` reads what it needs
   * through `read`, synchronously, and answers its writes: no other write comes between its reads
   * and the writes. The writes are made all or none: when an insert's id is taken or a replace's
   * version differs (or the plan writes one document twice), nothing is written and the answer is
   * `'conflict'`; a plan that read a document and replaces it at the version it read never meets
   * one. No reader sees some of the writes without the others. `plan` must be pure but for its
   * reads (an error it throws rejects the call, with nothing written). Core uses it to record a
   * change of an identity with its events already in the log, instead of through the outbox's
   * three further writes; a store that cannot make several documents atomic leaves it out, and
   * core writes through the outbox instead.
   */
  transact?<R>(plan: (read: PlanRead) => Plan<R>): Promise<{ readonly kind: 'written'; readonly result: R } | { readonly kind: 'conflict' }>;

  /**
   * Compare-and-set: replaces the whole document (all fields but `id`) only when the stored
   * `version` equals `expectedVersion`; the stored version becomes `expectedVersion + 1`.
   * Answers `false` when the document is absent or its version differs. Atomic: of N concurrent
   * replaces with the same expected version, exactly one answers `true`.
   */
  replace<T extends NewDocument>(collection: string, doc: T, expectedVersion: number): Promise<boolean>;

  /**
   * Read-modify-write of one document: `change` gets the stored document and answers the
   * document to store in its place (all fields but `id` and `version`, as with `replace`), or
   * `undefined` to leave it as it is. Atomic: no other write to the document comes between the
   * read and the write, and the version grows by one when it writes. A backend that cannot hold
   * the document during `change` retries it after a lost compare-and-set, so `change` must be
   * pure and may run more than once; an error it throws rejects the update unchanged.
   * Answers `undefined` when the document does not exist.
   */
  update(
    collection: string,
    id: string,
    change: (current: StoredDocument) => NewDocument | undefined,
  ): Promise<UpdateOutcome | undefined>;

  /**
   * Adds `by` to the number in the top-level `field` of one document and bumps its `version`, as
   * one atomic step: the only read-modify-write the store does itself. It exists for counters
   * that every request touches (quotas, the event log's positions), where a compare-and-set loop
   * loses most of its races under load. Answers the field's new value, `'absent'` when there is no
   * such document, or `'over_max'` (nothing changed) when `bounds.max` would be exceeded.
   * Atomic: N concurrent increments of one field by 1 answer N distinct values and add N.
   * Throws a `TypeError` when the stored field does not hold a number.
   */
  increment(
    collection: string,
    id: string,
    field: string,
    by: number,
    bounds?: IncrementBounds,
  ): Promise<number | 'absent' | 'over_max'>;

  /**
   * Deletes the document; when `expectedVersion` is given, only if the stored version equals it.
   * Answers whether a document was deleted.
   */
  remove(collection: string, id: string, expectedVersion?: number): Promise<boolean>;

  /** Documents matching the query, in the requested order. */
  find(collection: string, query: FindQuery): Promise<StoredDocument[]>;

  /** How many documents match the filter and range. */
  count(collection: string, query?: Pick<FindQuery, 'where' | 'range'>): Promise<number>;

  /**
   * Optional. A number that changes whenever a writer other than this handle (another connection
   * or process) may have committed a change since the last call; between two equal answers only
   * writes made through this handle happened. Core keeps a record it read (a verified API key)
   * while the mark stays the same, and forgets it itself when it writes that record through this
   * handle. A store that cannot tell this cheaply leaves it out, and core reads every time. A
   * store may answer the same mark for the rest of a turn of the event loop: another writer's
   * change is then seen from the next turn on.
   */
  changeMark?(): number;

  /** Resolves when the backend answers; rejects when it does not (used by readiness checks). */
  ping(): Promise<void>;

  /** Releases the backend's resources. The store is unusable afterwards. */
  close(): Promise<void>;
}
