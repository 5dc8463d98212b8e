/**
 * The stores the micro-benchmark compares, each opened the way a host opens it and closed (with
 * whatever it wrote removed) afterwards: memory, SQLite on a file in WAL mode, and MongoDB when a
 * URL is given. Nothing is shared between them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore } from '@ephemail/core';
import { createMemoryDocumentStore } from '@ephemail/core';
import { connectMongo, createMongoDocumentStore } from '@ephemail/store-mongodb';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';

export type StoreName = 'memory' | 'sqlite' | 'mongodb';

export interface OpenedStore {
  readonly name: StoreName;
  /** How it was set up, for the results file. */
  readonly detail: string;
  readonly store: DocumentStore;
  /** Closes the store and removes what the benchmark wrote. */
  readonly dispose: () => Promise<void>;
}

const scratch = new Set<string>();

/** Removes the SQLite scratch directories left behind (for the exit handlers). */
export const removeStoreScratch = (): void => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  scratch.clear();
};

export const openMemory = (): OpenedStore => {
  const store = createMemoryDocumentStore();
  return { name: 'memory', detail: 'in-process maps', store, dispose: () => store.close() };
};

export const openSqlite = (): OpenedStore => {
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-scale-store-'));
  scratch.add(dir);
  const path = join(dir, 'store.db');
  const db = openSqliteDatabase(path);
  const mode = String(db.pragma('journal_mode', { simple: true }));
  const store = createSqliteDocumentStore(db);
  const dispose = async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    scratch.delete(dir);
  };
  return { name: 'sqlite', detail: `file, journal_mode=${mode}, synchronous=NORMAL (as the host opens it)`, store, dispose };
};

/**
 * A database of its own with a random name, dropped afterwards, so the benchmark never touches
 * data already on the deployment. (An interrupted run leaves it behind; its name is printed.)
 */
export const openMongo = (url: string): OpenedStore => {
  const dbName = `ephemail_scale_bench_${randomBytes(4).toString('hex')}`;
  const { client, db } = connectMongo(url, { dbName });
  const store = createMongoDocumentStore(db);
  const dispose = async () => {
    try {
      await store.close();
      await db.dropDatabase();
    } finally {
      await client.close();
    }
  };
  return { name: 'mongodb', detail: `database ${dbName}, majority writes (as the host opens it)`, store, dispose };
};
