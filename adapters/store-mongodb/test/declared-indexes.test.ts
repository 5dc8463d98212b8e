import test from 'ava';
import { COLLECTIONS, type CollectionSpec } from '@ephemail/core';
import type { IndexDescription } from 'mongodb';
import { createIndexesArgument, indexSpecs } from '../src/mongo-indexes.js';

// The store's index list is derived from core's COLLECTIONS, the one list the SQLite store reads
// too. These tests pin that: an index core declares and this store does not create would leave
// its queries (the exports' pages among them) scanning a whole collection on MongoDB only.

/** What `init` passes to `createIndexes` for one collection. */
const sentToServer = (spec: CollectionSpec): IndexDescription[] => createIndexesArgument(indexSpecs(spec));

/** The keys a declared index must have, worked out here rather than by the code under test. */
const expectedKeys = (fields: readonly string[]): [string, 1][] => {
  const keys: string[] = [];
  const add = (...more: string[]): void => {
    for (const key of more) if (!keys.includes(key)) keys.push(key);
  };
  for (const field of fields) {
    if (field === 'id') add('_id');
    else if (field === 'version') add('version');
    else add(`_rank.${field}`, field);
  }
  add('_id');
  return keys.map((key) => [key, 1]);
};

const keysOf = (index: IndexDescription): unknown[] => (index.key instanceof Map ? [...index.key.entries()] : Object.entries(index.key));

const declared = (spec: CollectionSpec) =>
  spec.indexes.map((fields) => ({ fields, keys: expectedKeys(fields) })).filter(({ keys }) => keys.length > 1);

test('mongodb indexes: every index core declares is created with its keys in order, and no other', (t) => {
  for (const spec of COLLECTIONS) {
    const sent = sentToServer(spec);
    for (const { fields, keys } of declared(spec)) {
      const matches = sent.filter((index) => JSON.stringify(keysOf(index)) === JSON.stringify(keys));
      t.is(matches.length, 1, `${spec.name}: index on ${fields.join(', ')}`);
    }
    const distinct = new Set(declared(spec).map(({ keys }) => JSON.stringify(keys)));
    t.is(sent.length, distinct.size, `${spec.name}: no index beyond the declared ones`);
  }
});

test('mongodb indexes: none is unique, partial or TTL, as core declares none so', (t) => {
  for (const spec of COLLECTIONS) {
    for (const index of sentToServer(spec)) {
      t.deepEqual(Object.keys(index).sort(), ['key', 'name'], `${spec.name}: ${index.name ?? ''}`);
    }
  }
});

test('mongodb indexes: the export indexes on events and extractions are created', (t) => {
  const exportIndexes = [
    { collection: 'events', fields: ['org_id', 'project_id', 'occurred_at'] },
    { collection: 'extractions', fields: ['org_id', 'project_id', 'extracted_at'] },
  ];
  for (const { collection, fields } of exportIndexes) {
    const spec = COLLECTIONS.find((candidate) => candidate.name === collection);
    t.truthy(spec?.indexes.some((declaredFields) => declaredFields.join() === fields.join()), `${collection} declares it`);
    const sent = spec ? sentToServer(spec).map(keysOf) : [];
    t.true(
      sent.some((keys) => JSON.stringify(keys) === JSON.stringify(expectedKeys(fields))),
      `${collection}: index on ${fields.join(', ')} sent to the server`,
    );
  }
});
