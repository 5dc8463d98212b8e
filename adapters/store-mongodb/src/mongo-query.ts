import type { Filter, FindQuery, RangeCondition, Scalar } from '@ephemail/core';
import type { Document } from 'mongodb';
import { fieldRef, RANK, scalarRank, type FieldRef } from './mongo-fields.js';

/** A filter no document satisfies (every document has an `_id`). */
export const MATCH_NOTHING: Document = Object.freeze({ _id: { $in: [] } });

const OPERATORS = { gt: '$gt', gte: '$gte', lt: '$lt', lte: '$lte' } as const;
type Bound = keyof typeof OPERATORS;
const isLower = (bound: Bound): boolean => bound === 'gt' || bound === 'gte';

interface RangeBound {
  readonly bound: Bound;
  readonly operand: Scalar;
  readonly rank: number;
}

/** Shadow ranks as stored: null stands for "no entry", which is what null and missing fields have. */
const storedRank = (rank: number): number | null => (rank === 0 ? null : rank);

/**
 * Equality with the port's meaning. MongoDB equality is already type-strict (`true` never
 * matches `1`) and `null` already matches missing fields; the shadow rank adds what it lacks:
 * an array holding the value (or holding null) is not equal to it. It also lets the compound
 * indexes, which lead with the rank, serve the filter.
 */
const equalityClause = (field: FieldRef, expected: Filter[string]): Document => {
  if (expected !== null && typeof expected === 'object') {
    const values = [...expected.in];
    const ranks = [...new Set(values.map((value) => storedRank(scalarRank(value))))];
    if (field.kind === 'fixed') return { [field.path]: { $in: values } };
    return { [field.rankPath]: { $in: ranks }, [field.path]: { $in: values } };
  }
  const rank = scalarRank(expected);
  if (field.kind === 'fixed') return { [field.path]: expected };
  return { [field.rankPath]: storedRank(rank), [field.path]: expected };
};

const operators = (bounds: readonly RangeBound[]): Document =>
  Object.fromEntries(bounds.map(({ bound, operand }) => [OPERATORS[bound], operand]));

/**
 * `_id` and `version` hold one type, so a bound of another type is always or never satisfied
 * (a string is above every number): it is dropped, or the whole range matches nothing.
 */
const fixedRange = (field: FieldRef & { kind: 'fixed' }, bounds: readonly RangeBound[]): Document => {
  const kept: RangeBound[] = [];
  for (const bound of bounds) {
    if (bound.rank === field.rank) kept.push(bound);
    else if (isLower(bound.bound) ? field.rank < bound.rank : field.rank > bound.rank) return MATCH_NOTHING;
  }
  return kept.length === 0 ? {} : { [field.path]: operators(kept) };
};

/**
 * A range in the port's order. The bounds narrow the ranks in range to [low, high] (null and
 * missing, objects and arrays never are); values are compared only at the two edge ranks, where
 * MongoDB's type-bracketed operators are exactly right. One rank left (a time window, a numeric
 * window) gives one index-friendly clause; several give an `$or` with one clause per rank.
 */
const rankedRange = (field: FieldRef & { kind: 'ranked' }, bounds: readonly RangeBound[]): Document => {
  const lows = bounds.filter((b) => isLower(b.bound));
  const highs = bounds.filter((b) => !isLower(b.bound));
  const low = Math.max(RANK.boolean, ...lows.map((b) => b.rank));
  const high = Math.min(RANK.string, ...highs.map((b) => b.rank));
  if (low > high) return MATCH_NOTHING;
  const clauses: Document[] = [];
  for (let rank = low; rank <= high; rank += 1) {
    const edge = [
      ...(rank === low ? lows.filter((b) => b.rank === low) : []),
      ...(rank === high ? highs.filter((b) => b.rank === high) : []),
    ];
    clauses.push(edge.length === 0 ? { [field.rankPath]: rank } : { [field.rankPath]: rank, [field.path]: operators(edge) });
  }
  return clauses.length === 1 ? (clauses[0] as Document) : { $or: clauses };
};

/** The filter for one range condition. */
export const rangeClause = (range: RangeCondition): Document => {
  const field = fieldRef(range.field);
  const bounds = (Object.keys(OPERATORS) as Bound[]).flatMap((bound) => {
    const operand = range[bound];
    return operand === undefined ? [] : [{ bound, operand, rank: scalarRank(operand) }];
  });
  return field.kind === 'fixed' ? fixedRange(field, bounds) : rankedRange(field, bounds);
};

/** Clauses that must all hold: one flat document when no key repeats, else `$and`. */
const allOf = (clauses: readonly Document[]): Document => {
  const entries = clauses.flatMap((clause) => Object.entries(clause));
  const keys = new Set(entries.map(([key]) => key));
  return keys.size === entries.length ? Object.fromEntries(entries) : { $and: [...clauses] };
};

/** The MongoDB filter for a query's `where` and `range`. Throws `TypeError` on a bad field name or operand. */
export const toMongoFilter = (query: Pick<FindQuery, 'where' | 'range'> = {}): Document => {
  const clauses = Object.entries(query.where ?? {}).map(([name, expected]) => equalityClause(fieldRef(name), expected));
  if (query.range !== undefined) clauses.push(rangeClause(query.range));
  return allOf(clauses);
};

/**
 * The sort keys, in order: the shadow rank, the value, then `_id` in the same direction for the
 * port's tie-break. A list of pairs rather than an object, so a field named like a number
 * cannot be moved to the front by JavaScript's key order.
 */
export const toMongoSort = (sort?: FindQuery['sort']): [string, 1 | -1][] => {
  const direction = sort?.direction === 'desc' ? -1 : 1;
  const field = fieldRef(sort?.field ?? 'id');
  const keys = field.kind === 'ranked' ? [field.rankPath, field.path] : [field.path];
  if (field.path !== '_id') keys.push('_id');
  return keys.map((key) => [key, direction]);
};
