import type { DocumentStore } from '@ephemail/core';
import { createMemoryDocumentStore } from '@ephemail/core';
import { connectMongo, createMongoDocumentStore } from '@ephemail/store-mongodb';
import { createSqliteDocumentStore, openSqliteDatabase, startBackgroundCheckpointer } from '@ephemail/store-sqlite';
import { MONGODB_URL } from './config-rules.js';


export interface OpenStoreOptions {
  /**
   * Whether a SQLite file gets its own background checkpointer. Default true; a second
   * connection of the same process (a delivery thread's) leaves checkpoints to the first.
   */
  readonly checkpointer?: boolean;
}


/**
 * Opens the store named by `DATABASE_URL`: `sqlite:<path>` (the default), `memory:`, or a
 * `mongodb://` / `mongodb+srv://` connection string. For MongoDB the store gets a client of its
 * own (majority writes, retryable writes, fail-fast timeouts) and closes it when it closes; the
 * driver connects on the store's first operation and reconnects by itself after an outage.
 */
export const openStore = (
  databaseUrl: string,
  onWarning: (error: Error) => void = () => undefined,
  options: OpenStoreOptions = {},
): DocumentStore => {
  if (databaseUrl === 'memory:') return createMemoryDocumentStore();
  if (databaseUrl.startsWith('sqlite:')) return openSqliteStore(databaseUrl.slice('sqlite:'.length), onWarning, options.checkpointer ?? true);
  if (MONGODB_URL.test(databaseUrl)) return createMongoDocumentStore(connectMongo(databaseUrl).db, { closeClient: true });
  throw new Error(`unsupported DATABASE_URL scheme: ${databaseUrl.split(':')[0]}`);
};

/**
 * A SQLite file gets a background checkpointer, so requests do not pay for copying the WAL into
 * the file; the connection keeps a 10,000-page automatic checkpoint only as a backstop.
 */
const openSqliteStore = (path: string, onWarning: (error: Error) => void, checkpointer: boolean): DocumentStore => {
  if (path === ':memory:' || path === '') return createSqliteDocumentStore(openSqliteDatabase(path));
  const db = openSqliteDatabase(path, { autoCheckpointPages: 10_000 });
  if (!checkpointer) return createSqliteDocumentStore(db);
  return createSqliteDocumentStore(db, { checkpointer: startBackgroundCheckpointer(path, { onError: onWarning }) });
};

/** The URL with any password replaced, for logs. */
export const describeDatabaseUrl = (databaseUrl: string): string => databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
