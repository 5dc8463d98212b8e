import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import type { DocumentStore } from '../src/index.js';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../src/index.js';

const HOUR = 3_600_000;

/** The free tier's, the grants' and the sign-in links' short-lived records, wherever they are kept. */
const shortLived = async (store: DocumentStore): Promise<string[]> => {
  const found: string[] = [];
  for (const collection of ['counters', 'expiring_records', 'free_identities']) {
    for (const doc of await store.find(collection, {})) {
      const kind = collection === 'free_identities' ? 'free_identity' : /^(freerate|freeip|grant|linkrate):/.exec(doc.id)?.[1];
      if (kind !== undefined) found.push(kind);
    }
  }
  return found.sort();
};

test('maintenance: rate windows and used grants go once past their time, a free-tier address place when its identity expires, a free identity record a day later', async (t) => {
  const store = createMemoryDocumentStore();
  const clock = new FakeClock('2026-03-01T12:00:30.000Z');
  const app = createEphemail({ store, inboxDomain: 'inbox.test', clock, free: { grantSecret: Buffer.alloc(32, 9) }, consumer: { onMagicLink: () => undefined } });
  await app.init();
  const made = await app.free.create({ clientIp: '203.0.113.9', grant: app.free.mintGrant().grant });
  if (E.isLeft(made)) return t.fail(made.left._tag);
  const { id, token } = made.right as { id: string; token: string };
  t.true(E.isRight(await app.consumer.signUp({ email: 'someone@example.com', clientIp: '203.0.113.9' })));
  const everything = ['free_identity', 'freeip', 'freerate', 'grant', 'linkrate', 'linkrate'];
  t.deepEqual(await shortLived(store), everything);

  t.is((await app.maintenance.tick('m')).expiredRecordsPurged, 0, 'nothing is due yet');
  t.deepEqual(await shortLived(store), everything);

  // The grant (5 minutes), the minute's and the hour's rate windows are over.
  clock.advance(HOUR);
  t.is((await app.maintenance.tick('m')).expiredRecordsPurged, 4);
  t.deepEqual(await shortLived(store), ['free_identity', 'freeip']);

  // The identity expired: its address place goes; its record still answers "expired".
  clock.advance(23 * HOUR);
  await app.maintenance.tick('m');
  t.deepEqual(await shortLived(store), ['free_identity']);
  t.like(await app.free.get(id, token, '203.0.113.10'), { left: { _tag: 'FreeIdentityExpired' } });

  clock.advance(24 * HOUR);
  await app.maintenance.tick('m');
  t.deepEqual((await shortLived(store)).filter((kind) => kind === 'free_identity'), []);
  t.like(await app.free.get(id, token, '203.0.113.10'), { left: { _tag: 'IdentityNotFound' } });
});

test('maintenance: a used grant is kept until it expires, so it cannot be replayed after a purge', async (t) => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, free: { grantSecret: Buffer.alloc(32, 3) } });
  await app.init();
  const { grant } = app.free.mintGrant();
  t.true(E.isRight(await app.free.create({ clientIp: '203.0.113.20', grant })));
  clock.advance(4 * 60_000);
  await app.maintenance.tick('m');
  t.like(await app.free.create({ clientIp: '203.0.113.21', grant }), { left: { _tag: 'GrantReplayed' } });
  clock.advance(60_000);
  await app.maintenance.tick('m');
  t.like(await app.free.create({ clientIp: '203.0.113.22', grant }), { left: { _tag: 'GrantExpired' } });
});
