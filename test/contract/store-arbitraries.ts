import type { FindQuery, NewDocument, Scalar } from '@ephemail/core';
import fc from 'fast-check';

/**
 * Generators for property tests that compare a store with the memory reference: values chosen to
 * collide (booleans and 1/0, numbers and their text, null and missing, case), small documents and
 * queries over two fields. Shared by every store adapter's "matches the memory store" test.
 */
export const scalar: fc.Arbitrary<Scalar> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 2 }),
  fc.constantFrom(0.5, -1.5),
  fc.constantFrom('', '0', '1', 'true', 'a', 'B', 'b', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z'),
);

const field = fc.constantFrom('f', 'g');

export const docs: fc.Arbitrary<NewDocument[]> = fc
  .uniqueArray(fc.constantFrom(...'abcdefghij'.split('')), { maxLength: 10 })
  .chain((ids) =>
    fc.tuple(...ids.map((id) => fc.record({ id: fc.constant(id), f: scalar, g: scalar }, { requiredKeys: ['id'] }))),
  );

const bound = fc.option(scalar, { nil: undefined });

/** Queries whose range may name any of `rangeFields`. */
export const queries = (rangeFields: readonly string[]): fc.Arbitrary<FindQuery> =>
  fc.record(
    {
      where: fc.dictionary(field, fc.oneof(scalar, fc.record({ in: fc.array(scalar, { maxLength: 3 }) }))),
      range: fc.record({ field: fc.constantFrom(...rangeFields), gt: bound, gte: bound, lt: bound, lte: bound }),
      sort: fc.record({ field: fc.constantFrom('f', 'g', 'id', 'version'), direction: fc.constantFrom('asc', 'desc') }),
      limit: fc.nat(6),
      offset: fc.nat(6),
    },
    { requiredKeys: [] },
  );

/** Drops bounds fast-check left undefined, as a caller would simply not write them. */
export const tidy = (q: FindQuery): FindQuery =>
  q.range === undefined
    ? q
    : { ...q, range: Object.fromEntries(Object.entries(q.range).filter(([, v]) => v !== undefined)) as FindQuery['range'] };
