import { MongoClient, type Db, type MongoClientOptions } from 'mongodb';

/**
 * Client settings for ephemail: writes acknowledged by a majority and retried once after a
 * network error or failover (the server recognises the retry, so an insert whose answer was lost
 * is not reported as `'exists'`), and short timeouts so an outage fails requests within seconds
 * instead of leaving them waiting. `socketTimeoutMS` stays above the store's `maxTimeMS`, so a
 * slow query is stopped by the server first.
 */
export const MONGO_CLIENT_DEFAULTS = Object.freeze({
  w: 'majority',
  retryWrites: true,
  retryReads: true,
  serverSelectionTimeoutMS: 5_000,
  connectTimeoutMS: 5_000,
  socketTimeoutMS: 30_000,
  appName: 'ephemail',
} satisfies MongoClientOptions);

/** The database used when neither the URL's path nor `dbName` names one. */
export const DEFAULT_DATABASE = 'ephemail';

/** Options of {@link connectMongo}: any driver option, plus the database to use. */
export interface ConnectMongoOptions extends MongoClientOptions {
  /** The database; default: the URL's path, else `ephemail`. */
  readonly dbName?: string;
}

/** What {@link connectMongo} builds: the client (the host closes it) and the database for the store. */
export interface MongoConnection {
  readonly client: MongoClient;
  readonly db: Db;
}

/** The option names given in a connection string's query, lower-cased (MongoDB reads them so). */
const urlOptionNames = (url: string): Set<string> => {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const names = query.split('&').filter(Boolean).map((pair) => decodeURIComponent(pair.split('=')[0] ?? '').toLowerCase());
  return new Set(names);
};

/** The database named by a connection string's path, if any. */
export const databaseFromUrl = (url: string): string | undefined => {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(url)?.[1];
  return path === undefined || path === '' ? undefined : decodeURIComponent(path);
};

/**
 * The client options for a URL: {@link MONGO_CLIENT_DEFAULTS}, except those the URL sets itself
 * (the driver would let an option object override the URL), then the caller's options.
 */
export const mongoClientOptions = (url: string, options: MongoClientOptions = {}): MongoClientOptions => {
  const inUrl = urlOptionNames(url);
  const defaults = Object.entries(MONGO_CLIENT_DEFAULTS).filter(([name]) => !inUrl.has(name.toLowerCase()));
  return { ...Object.fromEntries(defaults), ...options };
};

/**
 * Builds a `MongoClient` for `url` with ephemail's defaults, and the database the store should
 * use. Nothing is sent yet: the driver connects on the first operation (the store's `init` at
 * start-up), monitors the servers from then on, and reconnects by itself after an outage.
 * Throws at once on a malformed URL. The caller owns the client and closes it at shutdown.
 */
export const connectMongo = (url: string, options: ConnectMongoOptions = {}): MongoConnection => {
  const { dbName, ...clientOptions } = options;
  const client = new MongoClient(url, mongoClientOptions(url, clientOptions));
  return { client, db: client.db(dbName ?? databaseFromUrl(url) ?? DEFAULT_DATABASE) };
};
