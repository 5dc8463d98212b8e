import test from 'ava';
import { indexKeys, indexSpecs } from '../src/mongo-indexes.js';

const keysOf = (spec: { key: ReadonlyMap<string, 1> }) => [...spec.key.keys()];

test('mongodb indexes: each field is indexed as shadow rank then value, with _id last', (t) => {
  const [index] = indexSpecs({ name: 'events', indexes: [['org_id', 'project_id', 'occurred_at']] });
  t.deepEqual(keysOf(index!), [
    '_rank.org_id',
    'org_id',
    '_rank.project_id',
    'project_id',
    '_rank.occurred_at',
    'occurred_at',
    '_id',
  ]);
  t.deepEqual([...index!.key.values()], [1, 1, 1, 1, 1, 1, 1]);
});

test('mongodb indexes: id and version are indexed as they are stored', (t) => {
  t.deepEqual(indexKeys(['identity_id', 'id']), ['_rank.identity_id', 'identity_id', '_id']);
  t.deepEqual(indexKeys(['version']), ['version', '_id']);
});

test('mongodb indexes: an index on id alone is MongoDB’s own _id index, so none is declared', (t) => {
  t.deepEqual(indexSpecs({ name: 'c', indexes: [['id']] }), []);
});

test('mongodb indexes: names are readable, prefixed, stable and distinct', (t) => {
  const spec = { name: 'c', indexes: [['status', 'expires_at'], ['status'], ['status_expires', 'at']] };
  const names = indexSpecs(spec).map((index) => index.name);
  t.is(new Set(names).size, 3);
  t.deepEqual(indexSpecs(spec).map((index) => index.name), names);
  t.regex(names[0]!, /^ephemail_status_expires_at_[0-9a-f]{10}$/);
  t.not(names[0], names[2]);
});

test('mongodb indexes: a repeated declaration yields one index, a repeated field one key', (t) => {
  const specs = indexSpecs({ name: 'c', indexes: [['a', 'b'], ['a', 'b']] });
  t.is(specs.length, 1);
  t.deepEqual(indexKeys(['a', 'a']), ['_rank.a', 'a', '_id']);
});

test('mongodb indexes: a field named like a number keeps its place in the key', (t) => {
  t.deepEqual(keysOf(indexSpecs({ name: 'c', indexes: [['org', '7']] })[0]!), ['_rank.org', 'org', '_rank.7', '7', '_id']);
});

test('mongodb indexes: field names MongoDB reads as paths are refused', (t) => {
  t.throws(() => indexSpecs({ name: 'c', indexes: [['a.b']] }), { instanceOf: TypeError });
});
