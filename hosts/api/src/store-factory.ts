import type { DocumentStore } from '@ephemail/core';
import { createMemoryDocumentStore } from '@ephemail/core';
import { connectMongo, createMongoDocumentStore } from '@ephemail/store-mongodb';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';

const MONGODB_URL = /^mongodb(\+srv)?:\/\//;

/**
 * Opens the store named by `DATABASE_URL`: `sqlite:<path>` (the default), `memory:`, or a
 * `mongodb://` / `mongodb+srv://` connection string. For MongoDB the store gets a client of its
 * own (majority writes, retryable writes, fail-fast timeouts) and closes it when it closes; the
 * driver connects on the store's first operation and reconnects by itself after an outage.
 */
export const openStore = (databaseUrl: string): DocumentStore => {
  if (databaseUrl === 'memory:') return createMemoryDocumentStore();
  if (databaseUrl.startsWith('sqlite:')) return createSqliteDocumentStore(openSqliteDatabase(databaseUrl.slice('sqlite:'.length)));
  if (MONGODB_URL.test(databaseUrl)) return createMongoDocumentStore(connectMongo(databaseUrl).db, { closeClient: true });
  throw new Error(`unsupported DATABASE_URL scheme: ${databaseUrl.split(':')[0]}`);
};

/** The URL with any password replaced, for logs. */
export const describeDatabaseUrl = (databaseUrl: string): string => databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
