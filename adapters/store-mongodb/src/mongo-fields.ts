import type { NewDocument, Scalar, StoredDocument } from '@ephemail/core';
import type { Document } from 'mongodb';

/**
 * The shadow sub-document that holds the type rank of each top-level field. The port orders
 * values null < boolean < number < string, but BSON puts booleans after strings (and after
 * objects and arrays), and its range operators only match the bound's own type. Comparing
 * `(_rank.f, f)` instead of `f` gives the port's order, and an index on both keys serves it.
 */
export const RANK_FIELD = '_rank';

/** Type ranks as stored: null and missing have no entry, so both sort (and match) as BSON null. */
export const RANK = { boolean: 1, number: 2, string: 3, structured: 4 } as const;

/** The rank of a stored value; `undefined` for null and missing. Objects and arrays come last. */
export const rankOf = (value: unknown): number | undefined => {
  if (value === null || value === undefined) return undefined;
  switch (typeof value) {
    case 'boolean':
      return RANK.boolean;
    case 'number':
      return RANK.number;
    case 'string':
      return RANK.string;
    default:
      return RANK.structured;
  }
};

/** The rank of a filter or range operand: 0 for null. Throws on anything that is not a scalar. */
export const scalarRank = (value: Scalar): number => {
  if (value === null) return 0;
  const rank = rankOf(value);
  if (rank === undefined || rank === RANK.structured) {
    throw new TypeError(`mongodb store: ${String(value)} is not a scalar (string, number, boolean or null)`);
  }
  return rank;
};

/**
 * Where a port field lives in MongoDB. `id` is `_id` and `version` a number of its own, so each
 * has one fixed rank; every other field is compared together with its shadow rank.
 */
export type FieldRef =
  | { readonly kind: 'fixed'; readonly path: string; readonly rank: number }
  | { readonly kind: 'ranked'; readonly path: string; readonly rankPath: string };

const RESERVED = new Set(['_id', RANK_FIELD]);

/**
 * The MongoDB location of a top-level field named in a query or an index. Throws a `TypeError`
 * for a name MongoDB would read as a path or an operator (`a.b`, `$x`), or one the store reserves.
 */
export const fieldRef = (field: string): FieldRef => {
  if (field === 'id') return { kind: 'fixed', path: '_id', rank: RANK.string };
  if (field === 'version') return { kind: 'fixed', path: 'version', rank: RANK.number };
  const unsafe = typeof field !== 'string' || field === '' || field.startsWith('$') || /[.\0]/.test(field);
  if (unsafe || RESERVED.has(field)) {
    throw new TypeError(`mongodb store: field ${JSON.stringify(field)} cannot be queried (no '.', no leading '$', not _id or ${RANK_FIELD})`);
  }
  return { kind: 'ranked', path: field, rankPath: `${RANK_FIELD}.${field}` };
};

/**
 * The stored form of a document's fields (everything but `id`), at `version`, with the shadow
 * ranks. Built with `Object.fromEntries` so no field name can reach a prototype.
 */
export const encodeFields = (doc: NewDocument, version: number): Document => {
  const { id: _id, version: _version, ...fields } = doc as NewDocument & Record<string, unknown>;
  for (const name of RESERVED) {
    if (Object.hasOwn(fields, name)) throw new TypeError(`mongodb store: top-level field ${name} is reserved by the store`);
  }
  // Undefined fields are dropped, as JSON drops them (the collection also ignores nested ones).
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  const ranks = entries.flatMap(([name, value]) => {
    const rank = rankOf(value);
    return rank === undefined ? [] : [[name, rank] as const];
  });
  return Object.fromEntries([...entries, ['version', version], [RANK_FIELD, Object.fromEntries(ranks)]]);
};

/** The port's view of a stored MongoDB document: `_id` back to `id`, the shadow ranks dropped. */
export const decodeDocument = (raw: Document): StoredDocument => {
  const { _id, version, [RANK_FIELD]: _ranks, ...fields } = raw;
  return { id: _id as string, ...fields, version: version as number };
};
