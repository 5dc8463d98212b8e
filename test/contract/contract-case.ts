import { randomBytes, randomUUID } from 'node:crypto';
import type { DocumentStore, NewDocument, StoredDocument } from '@ephemail/core';
import type { ExecutionContext } from 'ava';

/** One rule of the storage contract, checked against a fresh store. Keyed by its title. */
export type ContractCase = (t: ExecutionContext, store: DocumentStore) => Promise<void>;

/** The store's optional operations. */
type OptionalOp = 'insertAll' | 'transact';

/**
 * A case of an optional operation: checked with the operation (bound to the store) when the store
 * offers it; a store without it is told apart in the test's log, and core takes its other path
 * with such a store.
 */
export const whenOffered =
  <K extends OptionalOp>(op: K, check: (t: ExecutionContext, store: DocumentStore, call: NonNullable<DocumentStore[K]>) => Promise<void>): ContractCase =>
  async (t, store) => {
    const call = store[op];
    if (call === undefined) {
      t.log(`this store does not offer ${op}`);
      t.pass();
      return;
    }
    await check(t, store, call.bind(store) as NonNullable<DocumentStore[K]>);
  };

/** How many callers a race case sets against each other. */
export const PARALLEL = 50;

/** `make(0..n-1)`, all started at once. */
export const times = <T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));

/** A collection name no other test uses, so tests sharing a backend cannot see each other. */
export const newCollection = (): string => `c_${randomBytes(6).toString('hex')}`;

/** A document id no other test uses. */
export const newId = (): string => `d_${randomUUID()}`;

/**
 * Ids that sort in the order given: a random shared prefix, then the suffixes. Lets a test say
 * which order ties must come out in.
 */
export const orderedIds = <const S extends readonly string[]>(...suffixes: S): { [K in keyof S]: string } => {
  const prefix = `d_${randomBytes(4).toString('hex')}_`;
  return suffixes.map((suffix) => `${prefix}${suffix}`) as { [K in keyof S]: string };
};

/** The ids at these positions, in this order. */
export const pick = (ids: readonly string[], ...positions: number[]): string[] =>
  positions.map((position) => {
    const id = ids[position];
    if (id === undefined) throw new RangeError(`no id at position ${position}`);
    return id;
  });

/** Inserts every document, failing the test if any id was already taken. */
export const insertAll = async <T extends NewDocument>(
  t: ExecutionContext,
  store: DocumentStore,
  collection: string,
  docs: readonly T[],
): Promise<void> => {
  const outcomes = await Promise.all(docs.map((doc) => store.insert(collection, doc)));
  t.deepEqual(outcomes, docs.map(() => 'inserted' as const));
};

export const idsOf = (docs: readonly StoredDocument[]): string[] => docs.map((doc) => doc.id);
