import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { MongoClient } from 'mongodb';
import { connectMongo, createMongoDocumentStore, MONGO_STORE_DEFAULTS, MongoStoreError } from '../src/index.js';
import { resolveStoreOptions } from '../src/mongo-document-store.js';

// No MongoDB server runs here: these tests cover options and what happens when the server is
// unreachable or silent. The storage contract itself runs in test/contract when MONGODB_URL is set.

/** A client that counts how often it is closed, without sending anything. */
class CountingClient extends MongoClient {
  closes = 0;
  override async close(force?: boolean): Promise<void> {
    this.closes += 1;
    await super.close(force);
  }
}

test('mongodb store: defaults are a 10 s time limit, majority writes, and a client the host closes', (t) => {
  t.deepEqual(resolveStoreOptions(), {
    maxTimeMS: 10_000,
    writeConcern: { w: 'majority', wtimeoutMS: 10_000 },
    closeClient: false,
  });
  t.deepEqual(resolveStoreOptions({ maxTimeMS: 50 }), { ...MONGO_STORE_DEFAULTS, maxTimeMS: 50 });
});

test('mongodb store: settings that would hide outcomes or disable the time limit are refused', (t) => {
  t.throws(() => resolveStoreOptions({ maxTimeMS: 0 }), { instanceOf: RangeError });
  t.throws(() => resolveStoreOptions({ maxTimeMS: 1.5 }), { instanceOf: RangeError });
  t.throws(() => resolveStoreOptions({ writeConcern: { w: 0 } }), { instanceOf: RangeError });
});

test('mongodb store: close leaves the client open unless told to close it', async (t) => {
  const shared = new CountingClient('mongodb://localhost:27017');
  const owned = new CountingClient('mongodb://localhost:27017');
  t.teardown(() => shared.close());
  await createMongoDocumentStore(shared.db('x')).close();
  t.is(shared.closes, 0);
  const store = createMongoDocumentStore(owned.db('x'), { closeClient: true });
  await store.close();
  await store.close();
  t.is(owned.closes, 1);
});

test('mongodb store: a closed store rejects every operation without sending it', async (t) => {
  const { client, db } = connectMongo('mongodb://localhost:27017/x');
  t.teardown(() => client.close());
  const store = createMongoDocumentStore(db);
  await store.close();
  await t.throwsAsync(store.ping(), { instanceOf: MongoStoreError, message: /ping failed: the store is closed/ });
  await t.throwsAsync(store.get('c', 'd1'), { instanceOf: MongoStoreError });
  await t.throwsAsync(store.insert('c', { id: 'd1' }), { instanceOf: MongoStoreError });
  await t.throwsAsync(store.find('c', {}), { instanceOf: MongoStoreError });
  await t.throwsAsync(store.init([{ name: 'c', indexes: [['a']] }]), { instanceOf: MongoStoreError });
});

const freePort = async (): Promise<number> => {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
};

/** A TCP listener that accepts connections and never answers, like a hung server or a black-holed route. */
const silentServer = async (t: ExecutionContext): Promise<number> => {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, 'close');
  });
  return (server.address() as { port: number }).port;
};

/** Every operation must reject with a MongoStoreError, well before the ava timeout. */
const failsFast = async (t: ExecutionContext, url: string) => {
  const { db } = connectMongo(url, { serverSelectionTimeoutMS: 300, connectTimeoutMS: 300 });
  const store = createMongoDocumentStore(db, { closeClient: true });
  t.teardown(() => store.close());
  const started = Date.now();
  const operations = [
    store.ping(),
    store.init([{ name: 'c', indexes: [['a', 'b']] }]),
    store.get('c', 'd1'),
    store.insert('c', { id: 'd1' }),
    store.replace('c', { id: 'd1' }, 1),
    store.remove('c', 'd1'),
    store.find('c', { where: { a: 1 } }),
    store.count('c'),
  ];
  for (const outcome of await Promise.allSettled(operations)) {
    t.is(outcome.status, 'rejected');
    if (outcome.status === 'rejected') t.true(outcome.reason instanceof MongoStoreError, String(outcome.reason));
  }
  t.true(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
};

test('mongodb store: with nothing listening, every operation rejects within the selection timeout', async (t) => {
  await failsFast(t, `mongodb://127.0.0.1:${await freePort()}/x`);
});

test('mongodb store: with a server that never answers, every operation rejects instead of hanging', async (t) => {
  await failsFast(t, `mongodb://127.0.0.1:${await silentServer(t)}/x`);
});
