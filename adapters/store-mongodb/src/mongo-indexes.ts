import { createHash } from 'node:crypto';
import type { CollectionSpec } from '@ephemail/core';
import { MongoServerError, type Collection, type Document, type IndexDescription } from 'mongodb';
import { fieldRef } from './mongo-fields.js';

/** Indexes the store creates carry this prefix, so it never drops one an operator added by hand. */
export const INDEX_PREFIX = 'ephemail_';

/** One compound index as MongoDB receives it. */
export interface MongoIndexSpec {
  readonly name: string;
  /** Keys in order; a Map because an object would move number-like field names to the front. */
  readonly key: ReadonlyMap<string, 1>;
}

/** The server's codes for "no such collection" and "no such index", both harmless here. */
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

/**
 * The keys of one declared index: each field as `(shadow rank, value)` like the queries compare
 * it, then `_id`, so a sorted page with its tie-break comes straight from the index.
 */
export const indexKeys = (fields: readonly string[]): string[] => {
  const keys: string[] = [];
  for (const name of fields) {
    const field = fieldRef(name);
    for (const key of field.kind === 'ranked' ? [field.rankPath, field.path] : [field.path]) {
      if (!keys.includes(key)) keys.push(key);
    }
  }
  if (!keys.includes('_id')) keys.push('_id');
  return keys;
};

/**
 * A readable name plus a digest of the exact keys, so a change of key layout gets a new name
 * (and the old index is dropped) rather than a conflict with an index of the same name.
 */
const indexName = (fields: readonly string[], keys: readonly string[]): string => {
  const digest = createHash('sha256').update(JSON.stringify(keys)).digest('hex').slice(0, 10);
  const readable = fields.join('_').replace(/[^a-z0-9_]/gi, '_').slice(0, 60);
  return `${INDEX_PREFIX}${readable}_${digest}`;
};

/**
 * The MongoDB indexes for a collection's declared indexes, without duplicates. An index on `id`
 * alone is left out: MongoDB's own `_id` index is that index.
 */
export const indexSpecs = (spec: CollectionSpec): MongoIndexSpec[] => {
  const byName = new Map<string, MongoIndexSpec>();
  for (const fields of spec.indexes) {
    const keys = indexKeys(fields);
    if (keys.length === 1) continue;
    const name = indexName(fields, keys);
    byName.set(name, { name, key: new Map(keys.map((key) => [key, 1 as const])) });
  }
  return [...byName.values()];
};

/**
 * What `createIndexes` receives for these indexes: name and keys only. No `unique` (ids are
 * MongoDB's unique `_id`), no partial filter (each port collection is a collection of its own) and
 * no TTL (expiry is a domain rule run as leased jobs), as `COLLECTIONS` declares none of them.
 */
export const createIndexesArgument = (wanted: readonly MongoIndexSpec[]): IndexDescription[] =>
  wanted.map(({ name, key }) => ({ name, key: new Map(key) }));

const hasCode = (error: unknown, code: number): boolean => error instanceof MongoServerError && error.code === code;

const existingIndexNames = async <T extends Document>(collection: Collection<T>): Promise<string[]> => {
  try {
    const indexes = await collection.listIndexes().toArray();
    return indexes.map((index) => String(index.name));
  } catch (error) {
    if (hasCode(error, NAMESPACE_NOT_FOUND)) return [];
    throw error;
  }
};

/**
 * Creates the declared indexes and drops this store's indexes that are no longer declared (they
 * would cost every write). Idempotent: creating an index that exists with the same keys and name
 * is a no-op on the server, which also lets concurrent start-ups join one build; a drop that
 * another process got to first is ignored.
 */
export const syncIndexes = async <T extends Document>(collection: Collection<T>, wanted: readonly MongoIndexSpec[]): Promise<void> => {
  if (wanted.length > 0) {
    await collection.createIndexes(createIndexesArgument(wanted));
  }
  const declared = new Set(wanted.map(({ name }) => name));
  const existing = await existingIndexNames(collection);
  const stale = existing.filter((name) => name.startsWith(INDEX_PREFIX) && !declared.has(name));
  for (const name of stale) {
    await collection.dropIndex(name).catch((error: unknown) => {
      if (!hasCode(error, INDEX_NOT_FOUND)) throw error;
    });
  }
};
