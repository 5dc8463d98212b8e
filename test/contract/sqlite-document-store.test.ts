import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';
import test from 'ava';
import { runDocumentStoreContract } from './document-store-suite.js';

// A real file, so WAL, the busy timeout and the on-disk encoding are what is tested.
runDocumentStoreContract(test, 'sqlite (file)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-sqlite-'));
  const store = createSqliteDocumentStore(openSqliteDatabase(join(dir, 'store.db')));
  return { store, cleanup: () => rm(dir, { recursive: true, force: true }) };
});

runDocumentStoreContract(test, 'sqlite (:memory:)', async () => ({
  store: createSqliteDocumentStore(openSqliteDatabase(':memory:')),
}));

// Every write its own transaction: the option kept for measuring group commit must keep the contract too.
runDocumentStoreContract(test, 'sqlite (file, no group commit)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-sqlite-'));
  const store = createSqliteDocumentStore(openSqliteDatabase(join(dir, 'store.db')), { groupCommit: false });
  return { store, cleanup: () => rm(dir, { recursive: true, force: true }) };
});
