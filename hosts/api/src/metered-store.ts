import { performance } from 'node:perf_hooks';
import type { DocumentStore, Meter, STORE_OPERATIONS } from '@ephemail/core';

type Operation = (typeof STORE_OPERATIONS)[number];

/**
 * The store with the time of each operation that answered observed in
 * `ephemail_store_operation_duration_seconds` (the host wraps its store once, and each delivery
 * thread its own). The optional operations stay absent when the store has none: core reads their
 * absence as "write another way". `init`, `ping` and `close` are not timed.
 */
export const meteredStore = (store: DocumentStore, meter: Meter): DocumentStore => {
  /** Observes the time since `started` under `operation`; answers `result`. */
  const timed = <R>(operation: Operation, started: number, result: R): R => {
    meter.observe('ephemail_store_operation_duration_seconds', (performance.now() - started) / 1000, operation);
    return result;
  };
  const metered: DocumentStore = {
    init: (collections) => store.init(collections),
    get: (collection, id) => {
      const started = performance.now();
      return store.get(collection, id).then((doc) => timed('get', started, doc));
    },
    insert: (collection, doc) => {
      const started = performance.now();
      return store.insert(collection, doc).then((outcome) => timed('insert', started, outcome));
    },
    replace: (collection, doc, expectedVersion) => {
      const started = performance.now();
      return store.replace(collection, doc, expectedVersion).then((replaced) => timed('replace', started, replaced));
    },
    update: (collection, id, change) => {
      const started = performance.now();
      return store.update(collection, id, change).then((outcome) => timed('update', started, outcome));
    },
    increment: (collection, id, field, by, bounds) => {
      const started = performance.now();
      return store.increment(collection, id, field, by, bounds).then((outcome) => timed('increment', started, outcome));
    },
    remove: (collection, id, expectedVersion) => {
      const started = performance.now();
      return store.remove(collection, id, expectedVersion).then((removed) => timed('remove', started, removed));
    },
    find: (collection, query) => {
      const started = performance.now();
      return store.find(collection, query).then((docs) => timed('find', started, docs));
    },
    count: (collection, query) => {
      const started = performance.now();
      return store.count(collection, query).then((n) => timed('count', started, n));
    },
    ping: () => store.ping(),
    close: () => store.close(),
  };
  if (store.insertAll !== undefined) {
    const insertAll = store.insertAll.bind(store);
    metered.insertAll = (docs) => {
      const started = performance.now();
      return insertAll(docs).then((outcome) => timed('insert_all', started, outcome));
    };
  }
  if (store.transact !== undefined) {
    const transact = store.transact.bind(store);
    metered.transact = (plan) => {
      const started = performance.now();
      return transact(plan).then((outcome) => timed('transact', started, outcome));
    };
  }
  if (store.changeMark !== undefined) metered.changeMark = store.changeMark.bind(store);
  return metered;
};
