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
} from '../ports/document-store.js';
import { incremented } from '../store/increment-rule.js';
import { compareScalars, matchesQuery } from './match.js';

/**
 * The reference store: everything in one process's memory, copied on the way in and out so
 * callers can never mutate stored state. Atomic because no operation awaits between its read
 * and its write.
 */
export class MemoryDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, Map<string, StoredDocument>>();
  private closed = false;

  async init(collections: readonly CollectionSpec[]): Promise<void> {
    for (const spec of collections) this.collection(spec.name);
  }

  async get(collection: string, id: string): Promise<StoredDocument | undefined> {
    const doc = this.collection(collection).get(id);
    return doc === undefined ? undefined : structuredClone(doc);
  }

  async insert<T extends NewDocument>(collection: string, doc: T): Promise<'inserted' | 'exists'> {
    const docs = this.collection(collection);
    if (docs.has(doc.id)) return 'exists';
    docs.set(doc.id, { ...structuredClone(doc), version: 1 });
    return 'inserted';
  }

  /** A `transact` plan that reads nothing and inserts every document. */
  async insertAll<T extends NewDocument>(entries: readonly NewEntry<T>[]): Promise<'inserted' | 'exists'> {
    const writes = entries.map(({ collection, doc }): PlannedWrite => ({ kind: 'insert', collection, doc }));
    return (await this.transact(() => ({ writes, result: undefined }))).kind === 'written' ? 'inserted' : 'exists';
  }

  async transact<R>(plan: (read: PlanRead) => Plan<R>): Promise<{ readonly kind: 'written'; readonly result: R } | { readonly kind: 'conflict' }> {
    const read: PlanRead = (collection, id) => {
      const doc = this.collection(collection).get(id);
      return doc === undefined ? undefined : structuredClone(doc);
    };
    const { writes, result } = plan(read);
    const written = new Set<string>();
    for (const write of writes) {
      const key = `${write.collection}\n${write.doc.id}`;
      if (written.has(key)) return { kind: 'conflict' };
      written.add(key);
      const current = this.collection(write.collection).get(write.doc.id);
      if (write.kind === 'replace' ? current?.version !== write.expectedVersion : current !== undefined) return { kind: 'conflict' };
    }
    for (const write of writes) {
      const version = write.kind === 'replace' ? write.expectedVersion + 1 : 1;
      this.collection(write.collection).set(write.doc.id, { ...structuredClone(write.doc), id: write.doc.id, version });
    }
    return { kind: 'written', result };
  }

  async replace<T extends NewDocument>(collection: string, doc: T, expectedVersion: number): Promise<boolean> {
    const docs = this.collection(collection);
    const current = docs.get(doc.id);
    if (current === undefined || current.version !== expectedVersion) return false;
    docs.set(doc.id, { ...structuredClone(doc), version: expectedVersion + 1 });
    return true;
  }

  async update(
    collection: string,
    id: string,
    change: (current: StoredDocument) => NewDocument | undefined,
  ): Promise<UpdateOutcome | undefined> {
    const docs = this.collection(collection);
    const current = docs.get(id);
    if (current === undefined) return undefined;
    const next = change(structuredClone(current));
    if (next === undefined) return { doc: structuredClone(current), written: false };
    const { version: _version, ...fields } = next as NewDocument & { version?: number };
    const stored = { ...structuredClone(fields), id, version: current.version + 1 };
    docs.set(id, stored);
    return { doc: structuredClone(stored), written: true };
  }

  async increment(
    collection: string,
    id: string,
    field: string,
    by: number,
    bounds: IncrementBounds = {},
  ): Promise<number | 'absent' | 'over_max'> {
    const docs = this.collection(collection);
    const current = docs.get(id);
    if (current === undefined) return 'absent';
    const next = incremented(current[field], by, bounds);
    if (next === 'not_number') throw new TypeError(`memory store: ${collection}/${id}.${field} is not a number`);
    if (next === 'over_max') return next;
    docs.set(id, { ...current, [field]: next, version: current.version + 1 });
    return next;
  }

  async remove(collection: string, id: string, expectedVersion?: number): Promise<boolean> {
    const docs = this.collection(collection);
    const current = docs.get(id);
    if (current === undefined) return false;
    if (expectedVersion !== undefined && current.version !== expectedVersion) return false;
    return docs.delete(id);
  }

  async find(collection: string, query: FindQuery): Promise<StoredDocument[]> {
    const matching = [...this.collection(collection).values()].filter((doc) => matchesQuery(doc, query));
    const field = query.sort?.field ?? 'id';
    const sign = query.sort?.direction === 'desc' ? -1 : 1;
    matching.sort((a, b) => sign * (compareScalars(a[field], b[field]) || compareScalars(a.id, b.id)));
    const offset = query.offset ?? 0;
    const end = query.limit === undefined ? undefined : offset + query.limit;
    return matching.slice(offset, end).map((doc) => structuredClone(doc));
  }

  async count(collection: string, query: Pick<FindQuery, 'where' | 'range'> = {}): Promise<number> {
    let n = 0;
    for (const doc of this.collection(collection).values()) if (matchesQuery(doc, query)) n += 1;
    return n;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('memory store is closed');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.collections.clear();
  }

  private collection(name: string): Map<string, StoredDocument> {
    if (this.closed) throw new Error('memory store is closed');
    let docs = this.collections.get(name);
    if (docs === undefined) {
      docs = new Map();
      this.collections.set(name, docs);
    }
    return docs;
  }
}

/** A new, empty in-memory store. */
export const createMemoryDocumentStore = (): MemoryDocumentStore => new MemoryDocumentStore();
