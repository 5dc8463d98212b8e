import type { DocumentStore } from '@ephemail/core';
import { createMemoryDocumentStore } from '@ephemail/core';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';

/** Opens the store named by `DATABASE_URL`: `sqlite:<path>` (the default) or `memory:`. */
export const openStore = (databaseUrl: string): DocumentStore => {
  if (databaseUrl === 'memory:') return createMemoryDocumentStore();
  if (databaseUrl.startsWith('sqlite:')) return createSqliteDocumentStore(openSqliteDatabase(databaseUrl.slice('sqlite:'.length)));
  throw new Error(`unsupported DATABASE_URL scheme: ${databaseUrl.split(':')[0]}`);
};

/** The URL with any password replaced, for logs. */
export const describeDatabaseUrl = (databaseUrl: string): string => databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
