import test from 'ava';
import type { DocumentStore, EventRecord, NewEntry } from '../src/index.js';
import { createMemoryDocumentStore, cryptoIds } from '../src/index.js';
import { C } from '../src/store/collections.js';
import { outboxOnlyStore, right, setup, tagOf } from './support.js';

/**
 * A created identity's `identity.provisioned` event goes to the log one of two ways: with the
 * identity in one atomic insert (a store with `insertAll`), or through the identity's outbox
 * (any other store). Both must leave the same state behind.
 */
const paths: Record<string, () => DocumentStore> = {
  'one atomic insert': createMemoryDocumentStore,
  'the outbox': outboxOnlyStore,
};

for (const [path, makeStore] of Object.entries(paths)) {
  test(`provision through ${path}: each identity is stored with an empty outbox and its event logged once, at its own position`, async (t) => {
    const store = makeStore();
    const { app, principal } = await setup({ store, plan: 'starter' });
    const published: EventRecord[] = [];
    app.events.subscribe((event) => void published.push(event));
    const single = right(await app.identities.create(principal, { label: 'one' }));
    const bulk = right(await app.identities.bulkCreate(principal, { identities: [{ label: 'b1' }, { label: 'b2' }, { label: 'b3' }] })).items;
    const ids = [single, ...bulk].map((identity) => identity.id);
    for (const id of ids) {
      const stored = (await store.get(C.identities, id))!;
      t.deepEqual(stored.pending_events, []);
      t.false(stored.has_pending);
      t.is(stored.event_count, 1);
      t.is((await store.get(C.addresses, stored.email as string))?.identity_id, id, 'the address leads to its identity');
    }
    const logged = await store.find(C.events, { sort: { field: 'position', direction: 'asc' } });
    const provisioned = logged.filter((event) => event.type === 'identity.provisioned');
    t.deepEqual(provisioned.map((event) => event.identity_id), ids);
    t.deepEqual(provisioned.map((event) => event.seq), [1, 1, 1, 1]);
    const positions = provisioned.map((event) => event.position as number);
    t.is(new Set(positions).size, 4);
    t.deepEqual(positions, [...positions].sort((a, b) => a - b));
    t.deepEqual(published.map((event) => event.identity_id), ids, 'listeners hear each event once');
    t.is(right(await app.events.list(principal, single.id, { limit: 10, offset: 0 })).items.length, 1);
  });
}

test('provision through one atomic insert: a batch whose insert fails leaves no identity and no event, and gives its places back', async (t) => {
  const store = createMemoryDocumentStore();
  const { app, principal } = await setup({ store, plan: 'starter' });
  const insertAll = store.insertAll.bind(store);
  let failNext = true;
  store.insertAll = async (entries: readonly NewEntry[]) => {
    if (failNext) {
      failNext = false;
      throw new Error('disk full');
    }
    return insertAll(entries);
  };
  await t.throwsAsync(app.identities.bulkCreate(principal, { identities: [{ label: 'lost 1' }, { label: 'lost 2' }] }), { message: 'disk full' });
  t.is(await store.count(C.identities), 0);
  t.is(await store.count(C.addresses), 0);
  t.is(await store.count(C.events, { where: { type: 'identity.provisioned' } }), 0);
  // The starter plan's 5 places are all still free.
  const five = Array.from({ length: 5 }, (_, i) => ({ label: `b${i}` }));
  t.is(tagOf(await app.identities.bulkCreate(principal, { identities: five })), 'Right');
});

for (const [path, makeStore] of Object.entries(paths)) {
  test(`provision through ${path}: an address already taken is passed over for a new one`, async (t) => {
    const store = makeStore();
    const drawn: string[] = [];
    const ids = { next: cryptoIds.next, secret: (length: number) => drawn.shift() ?? cryptoIds.secret(length) };
    const { app, principal } = await setup({ store, ids });
    await store.insert(C.addresses, { id: 'takenlocalpart@inbox.test', identity_id: 'ident_other' });
    // The first local part drawn for the next identity is one another identity holds already.
    drawn.push('takenlocalpart', 'freshlocalpart');
    const identity = right(await app.identities.create(principal, { label: 'x' }));
    t.is(identity.email, 'freshlocalpart@inbox.test');
    t.is((await store.get(C.addresses, 'takenlocalpart@inbox.test'))?.identity_id, 'ident_other');
    t.is((await store.get(C.addresses, identity.email))?.identity_id, identity.id);
    const provisioned = await store.find(C.events, { where: { type: 'identity.provisioned' } });
    t.deepEqual(provisioned.map((event) => (event.data as { email: string }).email), ['freshlocalpart@inbox.test']);
  });
}
