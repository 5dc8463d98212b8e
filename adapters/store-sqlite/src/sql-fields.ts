import type { Scalar } from '@ephemail/core';

/** The only names that are ever spliced into SQL text; everything else is a bound parameter. */
const SAFE_NAME = /^[a-z_][a-z0-9_]*$/i;

/** Throws unless `name` is safe to splice into SQL as an identifier or a JSON path. */
export const assertSafeName = (kind: string, name: string): string => {
  if (typeof name !== 'string' || !SAFE_NAME.test(name)) {
    throw new TypeError(`sqlite store: ${kind} ${JSON.stringify(name)} must match ${SAFE_NAME}`);
  }
  return name;
};

/**
 * How one document field appears in SQL: its value, and its type rank (null or missing 0,
 * boolean 1, number 2, string 3, object or array 4). Comparing `(rank, value)` pairs gives the
 * memory store's order, and keeps `true` apart from `1`, which `json_extract` alone conflates.
 * `id` and `version` live in columns, so their rank is a constant known here.
 */
export interface FieldSql {
  readonly rank: string | number;
  readonly value: string;
}

/**
 * The SQL for a top-level field; throws on a name that is not safe to splice. A field that one of
 * its collection's indexes reads (`indexed`) is always in `body`, so its SQL reads `body` alone,
 * as the index does. Any other field is in `unindexed`, or in `body` in a row written before that
 * column existed or while the field was indexed (see document-columns.ts).
 */
export const fieldSql = (field: string, indexed: boolean): FieldSql => {
  if (field === 'id') return { rank: 3, value: 'id' };
  if (field === 'version') return { rank: 2, value: 'version' };
  const path = `'$.${assertSafeName('field name', field)}'`;
  const json = indexed ? 'body' : `(CASE WHEN json_type(unindexed, ${path}) IS NULL THEN body ELSE unindexed END)`;
  return {
    // Index expressions must match query expressions token for token, so both come from here.
    rank:
      `(CASE coalesce(json_type(${json}, ${path}), 'null') WHEN 'null' THEN 0 ` +
      `WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2 ` +
      `WHEN 'text' THEN 3 ELSE 4 END)`,
    value: `json_extract(${json}, ${path})`,
  };
};

/** The type rank of a filter or range operand, on the same scale as {@link FieldSql.rank}. */
export const scalarRank = (value: Scalar): number => {
  if (value === null) return 0;
  switch (typeof value) {
    case 'boolean':
      return 1;
    case 'number':
      return 2;
    case 'string':
      return 3;
    default:
      throw new TypeError(`sqlite store: ${JSON.stringify(value)} is not a scalar`);
  }
};

/** A scalar as SQLite can bind it: the driver refuses booleans, and JSON stores them as 1 and 0. */
export const bindable = (value: Scalar): string | number | null =>
  typeof value === 'boolean' ? Number(value) : value;

/**
 * The expressions a compound index covers, in order; `id` last so sorted pages need no sort step.
 * No `collection` column: each index is partial to its own collection (see schema.ts).
 */
export const indexColumns = (fields: readonly string[]): string[] => {
  const columns: string[] = [];
  for (const field of fields) {
    const sql = fieldSql(field, true);
    if (typeof sql.rank === 'string') columns.push(sql.rank);
    columns.push(sql.value);
  }
  if (!fields.includes('id')) columns.push('id');
  return columns;
};
