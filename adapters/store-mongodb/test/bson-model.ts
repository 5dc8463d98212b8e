import type { Document } from 'mongodb';

/**
 * A model of how MongoDB matches and sorts the documents this store writes, from MongoDB's
 * documented rules: the comparison order of BSON types (null, numbers, strings, objects, arrays,
 * booleans), type bracketing of `$gt`/`$gte`/`$lt`/`$lte` (a bound only matches values of its own
 * type), equality to `null` matching missing fields, `$in`, `$or` and `$and`. It covers scalars
 * only, and throws on any operator it does not know, so it cannot agree by accident. It checks
 * the translation logic; it does not replace running the contract suite against a real server.
 */
const typeOrder = (value: unknown): number => {
  if (value === null || value === undefined) return 2;
  if (typeof value === 'number') return 3;
  if (typeof value === 'string') return 4;
  if (typeof value === 'boolean') return 9;
  throw new TypeError(`model: ${JSON.stringify(value)} is not a scalar`);
};

/** BSON order of two scalars; strings here are ASCII, where byte order is code-unit order. */
export const compareBson = (a: unknown, b: unknown): number => {
  const [ta, tb] = [typeOrder(a), typeOrder(b)];
  if (ta !== tb) return ta - tb;
  if (ta === 2 || a === b) return 0;
  return (a as number | string | boolean) < (b as number | string | boolean) ? -1 : 1;
};

const valueAt = (doc: Document, path: string): unknown => {
  let current: unknown = doc;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
};

const equals = (value: unknown, expected: unknown): boolean =>
  expected === null ? value === null || value === undefined : typeOrder(value) === typeOrder(expected) && value === expected;

const COMPARISONS: Record<string, (order: number) => boolean> = {
  $gt: (order) => order > 0,
  $gte: (order) => order >= 0,
  $lt: (order) => order < 0,
  $lte: (order) => order <= 0,
};

const satisfies = (value: unknown, operator: string, operand: unknown): boolean => {
  if (operator === '$in') return (operand as unknown[]).some((candidate) => equals(value, candidate));
  const comparison = COMPARISONS[operator];
  if (comparison === undefined || operand === null) throw new TypeError(`model: unknown operator ${operator}`);
  return value !== undefined && typeOrder(value) === typeOrder(operand) && comparison(compareBson(value, operand));
};

/** Whether a stored document matches a filter. */
export const matches = (doc: Document, filter: Document): boolean =>
  Object.entries(filter).every(([key, condition]) => {
    if (key === '$or') return (condition as Document[]).some((clause) => matches(doc, clause));
    if (key === '$and') return (condition as Document[]).every((clause) => matches(doc, clause));
    if (key.startsWith('$')) throw new TypeError(`model: unknown operator ${key}`);
    const value = valueAt(doc, key);
    if (condition === null || typeof condition !== 'object') return equals(value, condition);
    return Object.entries(condition as Document).every(([operator, operand]) => satisfies(value, operator, operand));
  });

/** Sorts stored documents by sort pairs, missing fields sorting as null. */
export const sortBy = (docs: readonly Document[], sort: readonly (readonly [string, 1 | -1])[]): Document[] =>
  [...docs].sort((a, b) => {
    for (const [key, direction] of sort) {
      const order = compareBson(valueAt(a, key), valueAt(b, key));
      if (order !== 0) return order * direction;
    }
    return 0;
  });
