import type { NewDocument, StoredDocument } from '@ephemail/core';

/**
 * How a document is laid out in its row. `id` and `version` have columns of their own. The fields
 * that the collection's indexes read are in `body` (JSON), every other field in `unindexed`
 * (JSON), and a top-level field holding a `Uint8Array` (at most one) in `bytes` as it is.
 *
 * The split is for writes: SQLite maintains every index whose expression reads a column the
 * `UPDATE` sets, whether or not the indexed value changed. An identity has five indexes and is
 * rewritten by every message it receives, for fields (counters, recent message ids, the outbox)
 * that none of them reads. With the fields apart, such a write sets `unindexed` alone and no index
 * is touched (ADR 0027).
 *
 * Rows written before `unindexed` existed hold every field in `body` and `NULL` there; they read
 * the same, and the next write splits them.
 */
export interface Row {
  readonly id: string;
  readonly version: number;
  readonly body: string;
  readonly unindexed: string | null;
  readonly bytes: Buffer | null;
}

/** A document as its columns. */
export interface Encoded {
  readonly body: string;
  readonly unindexed: string;
  readonly bytes: Uint8Array | null;
}

/**
 * Where the JSON names the field whose value is in `bytes`. A name with a leading `$` is not a
 * field any document may have (MongoDB refuses them), so it cannot clash with one.
 */
export const BYTES_FIELD = '$bytes';

/** A row's columns: `fields` (no `id` or `version`; the bytes mark, if any) split, and the bytes. */
export const splitFields = (fields: Record<string, unknown>, indexed: ReadonlySet<string>, bytes: Uint8Array | null): Encoded => {
  if (indexed.size === 0) return { body: '{}', unindexed: JSON.stringify(fields), bytes };
  const inBody: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const key in fields) {
    if (indexed.has(key)) inBody[key] = fields[key];
    else rest[key] = fields[key];
  }
  return { body: JSON.stringify(inBody), unindexed: JSON.stringify(rest), bytes };
};

/**
 * The document as its columns. Raw mail stored as text cost a string of it, JSON's escapes of
 * every CR and LF and a UTF-8 copy (or base64 for 8-bit mail); bound as a blob, SQLite copies the
 * bytes once.
 */
export const encode = (doc: NewDocument, indexed: ReadonlySet<string>): Encoded => {
  const { id: _id, version: _version, ...fields } = doc as NewDocument & Record<string, unknown>;
  if (Object.hasOwn(fields, BYTES_FIELD)) throw new TypeError(`sqlite store: top-level field ${BYTES_FIELD} is reserved by the store`);
  let name: string | undefined;
  for (const key in fields) {
    if (!(fields[key] instanceof Uint8Array)) continue;
    if (name !== undefined) throw new TypeError('sqlite store: a document may hold at most one field of bytes');
    name = key;
  }
  if (name === undefined) return splitFields(fields, indexed, null);
  const { [name]: bytes, ...rest } = fields;
  // Added to the fresh rest rather than spread into a new literal (ADR 0024).
  rest[BYTES_FIELD] = name;
  return splitFields(rest, indexed, bytes as Uint8Array);
};

/** The row's JSON fields, the bytes mark included: `body`'s, then `unindexed`'s over them. */
export const jsonFields = (row: Pick<Row, 'body' | 'unindexed'>): Record<string, unknown> => {
  const fields = JSON.parse(row.body) as Record<string, unknown>;
  if (row.unindexed === null) return fields;
  const rest = JSON.parse(row.unindexed) as Record<string, unknown>;
  for (const key in rest) fields[key] = rest[key];
  return fields;
};

export const decode = (row: Row): StoredDocument => {
  const fields = jsonFields(row);
  if (row.bytes !== null && typeof fields[BYTES_FIELD] === 'string') {
    fields[fields[BYTES_FIELD]] = row.bytes;
    delete fields[BYTES_FIELD];
  }
  return { id: row.id, ...fields, version: row.version };
};

/**
 * Whether a write of `next` may set `unindexed` alone over `stored`: the stored row is split
 * already and its `body` is exactly what the write would put there.
 */
export const keepsBody = (stored: Pick<Row, 'body' | 'unindexed'> | undefined, next: Encoded): boolean =>
  stored !== undefined && stored.unindexed !== null && stored.body === next.body;
