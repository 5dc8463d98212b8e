import type { FindQuery, Scalar } from '../ports/document-store.js';

/** Type rank for ordering values of different types: null < boolean < number < string. */
const rank = (value: unknown): number => {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'boolean') return 1;
  if (typeof value === 'number') return 2;
  return 3;
};

/** Orders two scalars the way every store must: by type rank, then by value (strings by code unit). */
export const compareScalars = (a: unknown, b: unknown): number => {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  const va = a as Scalar;
  const vb = b as Scalar;
  if (va === vb) return 0;
  return (va as string | number) < (vb as string | number) ? -1 : 1;
};

const equals = (value: unknown, expected: Scalar): boolean =>
  expected === null ? value === null || value === undefined : value === expected;

/** Whether a document satisfies a query's filter and range (sorting and paging aside). */
export const matchesQuery = (
  doc: Readonly<Record<string, unknown>>,
  query: Pick<FindQuery, 'where' | 'range'>,
): boolean => {
  for (const [field, condition] of Object.entries(query.where ?? {})) {
    const value = doc[field];
    if (condition !== null && typeof condition === 'object') {
      if (!condition.in.some((candidate) => equals(value, candidate))) return false;
    } else if (!equals(value, condition)) return false;
  }
  const range = query.range;
  if (range === undefined) return true;
  const value = doc[range.field];
  if (value === undefined || value === null) return false;
  if (range.gt !== undefined && compareScalars(value, range.gt) <= 0) return false;
  if (range.gte !== undefined && compareScalars(value, range.gte) < 0) return false;
  if (range.lt !== undefined && compareScalars(value, range.lt) >= 0) return false;
  if (range.lte !== undefined && compareScalars(value, range.lte) > 0) return false;
  return true;
};
