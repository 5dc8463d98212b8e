export {
  connectMongo,
  DEFAULT_DATABASE,
  MONGO_CLIENT_DEFAULTS,
  mongoClientOptions,
  type ConnectMongoOptions,
  type MongoConnection,
} from './connect-mongo.js';
export { MongoStoreError } from './errors.js';
export {
  createMongoDocumentStore,
  MONGO_STORE_DEFAULTS,
  MongoDocumentStore,
  type MongoDocumentStoreOptions,
  type ResolvedMongoDocumentStoreOptions,
} from './mongo-document-store.js';
