import type { FindQuery } from '@ephemail/core';
import test from 'ava';
import { MATCH_NOTHING, toMongoFilter, toMongoSort } from '../src/mongo-query.js';

const A = '2026-01-01T00:00:00.000Z';
const B = '2026-01-02T00:00:00.000Z';
const range = (r: Omit<NonNullable<FindQuery['range']>, 'field'>, field = 'v') => toMongoFilter({ range: { field, ...r } });

test('mongodb query: no filter is the empty filter, and the default order is by _id ascending', (t) => {
  t.deepEqual(toMongoFilter(), {});
  t.deepEqual(toMongoFilter({}), {});
  t.deepEqual(toMongoSort(), [['_id', 1]]);
});

test('mongodb query: equality pins the shadow rank of each scalar type', (t) => {
  t.deepEqual(toMongoFilter({ where: { status: 'active' } }), { '_rank.status': 3, status: 'active' });
  t.deepEqual(toMongoFilter({ where: { n: 0 } }), { '_rank.n': 2, n: 0 });
  t.deepEqual(toMongoFilter({ where: { flag: true } }), { '_rank.flag': 1, flag: true });
});

test('mongodb query: a null filter matches a missing rank and a null or missing value', (t) => {
  t.deepEqual(toMongoFilter({ where: { v: null } }), { '_rank.v': null, v: null });
});

test('mongodb query: an in filter lists the ranks of its values, null included', (t) => {
  t.deepEqual(toMongoFilter({ where: { v: { in: [null, 1, 2, 'x'] } } }), {
    '_rank.v': { $in: [null, 2, 3] },
    v: { $in: [null, 1, 2, 'x'] },
  });
  t.deepEqual(toMongoFilter({ where: { v: { in: [] } } }), { '_rank.v': { $in: [] }, v: { $in: [] } });
});

test('mongodb query: id is _id and version is a plain number, neither with a shadow rank', (t) => {
  t.deepEqual(toMongoFilter({ where: { id: 'd1' } }), { _id: 'd1' });
  t.deepEqual(toMongoFilter({ where: { id: { in: ['a', 'b'] } } }), { _id: { $in: ['a', 'b'] } });
  t.deepEqual(toMongoFilter({ where: { version: 3 } }), { version: 3 });
});

test('mongodb query: filters on several fields form one flat document', (t) => {
  const filter = toMongoFilter({ where: { org: 'o1', pending: true }, range: { field: 'at', gte: A, lt: B } });
  t.deepEqual(filter, {
    '_rank.org': 3,
    org: 'o1',
    '_rank.pending': 1,
    pending: true,
    '_rank.at': 3,
    at: { $gte: A, $lt: B },
  });
});

test('mongodb query: a filter and a range on the same field are joined with $and', (t) => {
  t.deepEqual(toMongoFilter({ where: { n: 1 }, range: { field: 'n', gte: 0, lte: 5 } }), {
    $and: [{ '_rank.n': 2, n: 1 }, { '_rank.n': 2, n: { $gte: 0, $lte: 5 } }],
  });
});

test('mongodb query: a range whose bounds share a type is one clause on that rank', (t) => {
  t.deepEqual(range({ gte: A, lt: B }, 'occurred_at'), { '_rank.occurred_at': 3, occurred_at: { $gte: A, $lt: B } });
  t.deepEqual(range({ gt: -1.5, lte: 10 }, 'n'), { '_rank.n': 2, n: { $gt: -1.5, $lte: 10 } });
  t.deepEqual(range({ gt: 'a' }), { '_rank.v': 3, v: { $gt: 'a' } });
  t.deepEqual(range({ lte: false }), { '_rank.v': 1, v: { $lte: false } });
});

test('mongodb query: a range across types takes whole ranks between the edges', (t) => {
  // gt 0: numbers above 0, then every string (strings follow numbers).
  t.deepEqual(range({ gt: 0 }), { $or: [{ '_rank.v': 2, v: { $gt: 0 } }, { '_rank.v': 3 }] });
  // lt 0: every boolean (they precede numbers), then numbers below 0.
  t.deepEqual(range({ lt: 0 }), { $or: [{ '_rank.v': 1 }, { '_rank.v': 2, v: { $lt: 0 } }] });
  t.deepEqual(range({ gte: true, lt: 'a' }), {
    $or: [{ '_rank.v': 1, v: { $gte: true } }, { '_rank.v': 2 }, { '_rank.v': 3, v: { $lt: 'a' } }],
  });
});

test('mongodb query: a range never takes null, missing, objects or arrays', (t) => {
  t.deepEqual(range({ gte: null }), { $or: [{ '_rank.v': 1 }, { '_rank.v': 2 }, { '_rank.v': 3 }] });
  t.deepEqual(range({ lte: null }), MATCH_NOTHING);
  t.deepEqual(range({ gt: 'a', lt: 0 }), MATCH_NOTHING);
});

test('mongodb query: a bound on id or version of another type is always or never met', (t) => {
  t.deepEqual(range({ gt: 0 }, 'id'), {});
  t.deepEqual(range({ lt: 0 }, 'id'), MATCH_NOTHING);
  t.deepEqual(range({ gte: 'd_b', lt: true }, 'id'), MATCH_NOTHING);
  t.deepEqual(range({ gte: 'd_b', gt: null }, 'id'), { _id: { $gte: 'd_b' } });
  t.deepEqual(range({ gt: 1, lt: 'x' }, 'version'), { version: { $gt: 1 } });
  t.deepEqual(range({ gt: 'x' }, 'version'), MATCH_NOTHING);
});

test('mongodb query: a sort compares the shadow rank, then the value, then _id the same way', (t) => {
  t.deepEqual(toMongoSort({ field: 'created_at', direction: 'asc' }), [
    ['_rank.created_at', 1],
    ['created_at', 1],
    ['_id', 1],
  ]);
  t.deepEqual(toMongoSort({ field: 'n', direction: 'desc' }), [['_rank.n', -1], ['n', -1], ['_id', -1]]);
  t.deepEqual(toMongoSort({ field: 'id', direction: 'desc' }), [['_id', -1]]);
  t.deepEqual(toMongoSort({ field: 'version', direction: 'asc' }), [['version', 1], ['_id', 1]]);
});

test('mongodb query: a field named like a number keeps its place in the sort', (t) => {
  t.deepEqual(toMongoSort({ field: '10', direction: 'asc' }), [['_rank.10', 1], ['10', 1], ['_id', 1]]);
});

test('mongodb query: names MongoDB would read as paths or operators are refused', (t) => {
  for (const field of ['a.b', '$where', '', '_id', '_rank', 'nul\0l']) {
    t.throws(() => toMongoFilter({ where: { [field]: 1 } }), { instanceOf: TypeError }, field);
    t.throws(() => toMongoFilter({ range: { field, gt: 1 } }), { instanceOf: TypeError }, field);
    t.throws(() => toMongoSort({ field, direction: 'asc' }), { instanceOf: TypeError }, field);
  }
});

test('mongodb query: operands that are not scalars are refused', (t) => {
  const where = { v: { in: [{ $gt: '' }] } } as unknown as FindQuery['where'];
  t.throws(() => toMongoFilter({ where }), { instanceOf: TypeError });
  t.throws(() => toMongoFilter({ where: { v: undefined } as unknown as FindQuery['where'] }), { instanceOf: TypeError });
  t.throws(() => toMongoFilter({ range: { field: 'v', gt: [1] as unknown as number } }), { instanceOf: TypeError });
});
