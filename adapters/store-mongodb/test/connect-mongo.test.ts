import test, { type ExecutionContext } from 'ava';
import type { MongoClient } from 'mongodb';
import { connectMongo, databaseFromUrl, DEFAULT_DATABASE, MONGO_CLIENT_DEFAULTS, mongoClientOptions } from '../src/connect-mongo.js';

// connectMongo sends nothing until the first operation, so these clients never touch a network.
const closeAfter = (t: ExecutionContext, client: MongoClient) => t.teardown(() => client.close());

test('connectMongo: defaults are majority writes, retried writes and reads, and short timeouts', (t) => {
  t.deepEqual({ ...MONGO_CLIENT_DEFAULTS }, {
    w: 'majority',
    retryWrites: true,
    retryReads: true,
    serverSelectionTimeoutMS: 5_000,
    connectTimeoutMS: 5_000,
    socketTimeoutMS: 30_000,
    appName: 'ephemail',
  });
  const { client } = connectMongo('mongodb://localhost:27017/app?replicaSet=rs0');
  closeAfter(t, client);
  t.is(client.options.writeConcern?.w, 'majority');
  t.true(client.options.retryWrites);
  t.true(client.options.retryReads);
  t.is(client.options.serverSelectionTimeoutMS, 5_000);
  t.is(client.options.connectTimeoutMS, 5_000);
  t.is(client.options.socketTimeoutMS, 30_000);
  t.is(client.options.replicaSet, 'rs0');
});

test('connectMongo: an option written in the URL wins over the default, whatever its case', (t) => {
  const url = 'mongodb://localhost:27017/app?w=1&RETRYWRITES=false&serverSelectionTimeoutMS=800';
  t.deepEqual(mongoClientOptions(url), {
    retryReads: true,
    connectTimeoutMS: 5_000,
    socketTimeoutMS: 30_000,
    appName: 'ephemail',
  });
  const { client } = connectMongo(url);
  closeAfter(t, client);
  t.is(client.options.writeConcern?.w, 1);
  t.false(client.options.retryWrites);
  t.is(client.options.serverSelectionTimeoutMS, 800);
});

test('connectMongo: options given in code win over the URL and the defaults', (t) => {
  const { client } = connectMongo('mongodb://localhost:27017/app?connectTimeoutMS=100', { connectTimeoutMS: 2_000, appName: 'mine' });
  closeAfter(t, client);
  t.is(client.options.connectTimeoutMS, 2_000);
  t.is(client.options.appName, 'mine');
});

test('connectMongo: the database is dbName, else the URL path, else ephemail', (t) => {
  const cases: [string, string | undefined, string][] = [
    ['mongodb://localhost:27017/app?replicaSet=rs0', undefined, 'app'],
    ['mongodb://user:p%40ss@a:1,b:2/other', undefined, 'other'],
    ['mongodb://localhost:27017/?replicaSet=rs0', undefined, DEFAULT_DATABASE],
    ['mongodb://localhost:27017', undefined, DEFAULT_DATABASE],
    ['mongodb://localhost:27017/app', 'chosen', 'chosen'],
  ];
  for (const [url, dbName, expected] of cases) {
    const { client, db } = connectMongo(url, dbName === undefined ? {} : { dbName });
    closeAfter(t, client);
    t.is(db.databaseName, expected, url);
  }
  t.is(databaseFromUrl('mongodb+srv://cluster.example.net/prod%2Dmail?retryWrites=true'), 'prod-mail');
});

test('connectMongo: a malformed URL throws at once', (t) => {
  t.throws(() => connectMongo('mongodb://'));
  t.throws(() => connectMongo('postgres://localhost/app'));
});
