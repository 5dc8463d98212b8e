export {
  startBackgroundCheckpointer,
  type BackgroundCheckpointer,
  type BackgroundCheckpointerOptions,
} from './background-checkpointer.js';
export { SqliteStoreError } from './errors.js';
export { openSqliteDatabase, type OpenSqliteDatabaseOptions } from './open-sqlite-database.js';
export {
  createSqliteDocumentStore,
  SqliteDocumentStore,
  type SqliteDocumentStoreOptions,
} from './sqlite-document-store.js';
