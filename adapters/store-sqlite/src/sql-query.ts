import type { Filter, FindQuery, RangeCondition, Scalar } from '@ephemail/core';
import { assertSafeName, bindable, fieldSql, scalarRank, type FieldSql } from './sql-fields.js';

type Bind = string | number | null;

/** A WHERE clause, its parameters, and the fields whose type rank it pins to one value. */
export interface SqlCondition {
  readonly sql: string;
  readonly binds: readonly Bind[];
  readonly pinned: ReadonlySet<string>;
}

const OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
type Bound = keyof typeof OPERATORS;
const isLower = (bound: Bound): boolean => bound === 'gt' || bound === 'gte';

/** Equality with the memory store's meaning: `null` matches missing or null, `true` never matches `1`. */
const equalTerm = (field: FieldSql, expected: Scalar, binds: Bind[]): string => {
  const rank = scalarRank(expected);
  if (typeof field.rank === 'number') {
    if (field.rank !== rank) return '0';
    binds.push(bindable(expected));
    return `${field.value} = ?`;
  }
  if (rank === 0) return `${field.rank} = 0`;
  binds.push(bindable(expected));
  return `${field.rank} = ${rank} AND ${field.value} = ?`;
};

/**
 * Membership: the candidates grouped by type rank, one `rank = r AND value IN (...)` per rank. An
 * OR of equalities would mean the same, but SQLite then seeks the index on the rank alone and
 * walks every row of that rank (the expiry sweep read every live identity each tick: 2.4 ms at
 * 10,000 identities, growing with them); with `IN` it seeks each value and keeps the next
 * column's range.
 */
const membershipTerm = (field: FieldSql, candidates: readonly Scalar[], binds: Bind[]): string => {
  const byRank = new Map<number, Scalar[]>();
  for (const candidate of candidates) {
    const rank = scalarRank(candidate);
    const group = byRank.get(rank);
    if (group === undefined) byRank.set(rank, [candidate]);
    else group.push(candidate);
  }
  const terms: string[] = [];
  for (const [rank, group] of byRank) {
    // One term per rank: null needs no value, and a single value is an equality.
    if (rank === 0 || group.length === 1) {
      terms.push(equalTerm(field, group[0]!, binds));
      continue;
    }
    if (typeof field.rank === 'number' && field.rank !== rank) continue;
    binds.push(...group.map(bindable));
    const member = `${field.value} IN (${group.map(() => '?').join(', ')})`;
    terms.push(typeof field.rank === 'number' ? member : `${field.rank} = ${rank} AND ${member}`);
  }
  if (terms.length === 0) return '0';
  return terms.length === 1 ? `(${terms[0]})` : `(${terms.map((term) => `(${term})`).join(' OR ')})`;
};

const filterTerm = (field: FieldSql, expected: Filter[string], binds: Bind[]): string =>
  expected === null || typeof expected !== 'object' ? equalTerm(field, expected, binds) : membershipTerm(field, expected.in, binds);

interface RangeBound {
  readonly bound: Bound;
  readonly operand: Scalar;
  readonly rank: number;
}

/** `id` and `version` have one type, so each bound either compares the column or is constant. */
const columnRangeTerms = (field: FieldSql & { rank: number }, bounds: RangeBound[], binds: Bind[]): string[] =>
  bounds.map(({ bound, operand, rank }) => {
    if (rank !== field.rank) return (isLower(bound) ? field.rank > rank : field.rank < rank) ? '1' : '0';
    binds.push(bindable(operand));
    return `${field.value} ${OPERATORS[bound]} ?`;
  });

const valueTerms = (field: FieldSql, bounds: RangeBound[], binds: Bind[]): string[] =>
  bounds.map(({ bound, operand }) => {
    binds.push(bindable(operand));
    return `${field.value} ${OPERATORS[bound]} ?`;
  });

/**
 * A range with the memory store's order: a value of a lower type rank is lower whatever it holds.
 * Bounds narrow the allowed ranks to [low, high] (null, objects and arrays are never in range);
 * values are compared only at the edge ranks. When one rank is left (a time window, a numeric
 * window, a lower bound that is a string) the clause is `rank = r AND value ...`, which SQLite
 * answers from the expression index. Row values would say this in one term, but SQLite does not
 * use expression indexes for them.
 */
const rangeTerms = (range: RangeCondition, binds: Bind[], indexed: ReadonlySet<string>): { terms: string[]; pinned: boolean } => {
  const field = fieldSql(range.field, indexed.has(range.field));
  const bounds = (Object.keys(OPERATORS) as Bound[]).flatMap((bound) => {
    const operand = range[bound];
    return operand === undefined ? [] : [{ bound, operand, rank: scalarRank(operand) }];
  });
  if (typeof field.rank === 'number') {
    return { terms: columnRangeTerms({ ...field, rank: field.rank }, bounds, binds), pinned: false };
  }
  const lows = bounds.filter((b) => isLower(b.bound));
  const highs = bounds.filter((b) => !isLower(b.bound));
  const low = Math.max(1, ...lows.map((b) => b.rank));
  const high = Math.min(3, ...highs.map((b) => b.rank));
  if (low > high) return { terms: ['0'], pinned: false };
  const lowEdge = valueTerms(field, lows.filter((b) => b.rank === low), binds);
  const highEdge = valueTerms(field, highs.filter((b) => b.rank === high), binds);
  if (low === high) return { terms: [`${field.rank} = ${low}`, ...lowEdge, ...highEdge], pinned: true };
  const terms = [`${field.rank} >= ${low}`, `${field.rank} <= ${high}`];
  if (lowEdge.length > 0) terms.push(`(${field.rank} > ${low} OR (${lowEdge.join(' AND ')}))`);
  if (highEdge.length > 0) terms.push(`(${field.rank} < ${high} OR (${highEdge.join(' AND ')}))`);
  return { terms, pinned: false };
};

/**
 * The WHERE clause for a collection and a query's filter and range; `indexed` names the fields the
 * collection's indexes read (see {@link fieldSql}).
 */
export const whereClause = (collection: string, query: Pick<FindQuery, 'where' | 'range'>, indexed: ReadonlySet<string>): SqlCondition => {
  const binds: Bind[] = [];
  // A literal (validated), not a parameter: only then can SQLite use the collection's partial indexes.
  const terms = [`collection = '${assertSafeName('collection', collection)}'`];
  const pinned = new Set<string>();
  for (const [name, expected] of Object.entries(query.where ?? {})) {
    terms.push(filterTerm(fieldSql(name, indexed.has(name)), expected, binds));
    if (expected === null || typeof expected !== 'object') pinned.add(name);
  }
  if (query.range !== undefined) {
    const range = rangeTerms(query.range, binds, indexed);
    terms.push(...range.terms);
    if (range.pinned) pinned.add(query.range.field);
  }
  return { sql: terms.join(' AND '), binds, pinned };
};

/**
 * The ORDER BY clause: the sort field by type rank then value, ties broken by id the same way.
 * The rank key is left out when the WHERE pins it: it orders nothing then, and SQLite only sees
 * that the index already gives the order when the pinned expression is absent.
 */
export const orderClause = (sort: FindQuery['sort'], pinned: ReadonlySet<string>, indexed: ReadonlySet<string>): string => {
  const direction = sort?.direction === 'desc' ? 'DESC' : 'ASC';
  const name = sort?.field ?? 'id';
  const field = fieldSql(name, indexed.has(name));
  const keys = typeof field.rank === 'number' || pinned.has(name) ? [field.value] : [field.rank, field.value];
  if (field.value !== 'id') keys.push('id');
  return keys.map((key) => `${key} ${direction}`).join(', ');
};
