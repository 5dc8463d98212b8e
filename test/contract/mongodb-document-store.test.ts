import { randomBytes } from 'node:crypto';
import { connectMongo, createMongoDocumentStore } from '@ephemail/store-mongodb';
import test from 'ava';
import { runDocumentStoreContract } from './document-store-suite.js';

// A real MongoDB only: the suite is what proves the adapter, so it never runs against a stand-in.
const url = process.env.MONGODB_URL;

if (url === undefined || url === '') {
  test.skip(
    'mongodb contract: skipped — set MONGODB_URL=mongodb://localhost:27017/?directConnection=true ' +
      '(docker compose up -d --wait mongo) to run it',
    () => undefined,
  );
} else {
  // One client for the file, as a host would have; each test gets a database of its own.
  const { client } = connectMongo(url);
  test.after.always(() => client.close());

  runDocumentStoreContract(test, 'mongodb', async () => {
    const db = client.db(`ephemail_contract_${randomBytes(6).toString('hex')}`);
    return {
      store: createMongoDocumentStore(db),
      cleanup: async () => {
        await db.dropDatabase();
      },
    };
  });
}
