import test from 'ava';
import type { IdentityRecord } from '../src/index.js';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../src/index.js';
import { labelKey, labelPrefixRange } from '../src/domain/label-key.js';
import { C } from '../src/store/collections.js';
import { newPrincipal, right, setup } from './support.js';

const labelsOf = (page: { items: readonly { label: string }[] }) => page.items.map((i) => i.label);

test('label search: a prefix of the label finds it whatever its case, width or repeated spaces, in label order', async (t) => {
  const { app, principal } = await setup();
  for (const label of ['Signup Flow B', 'signup  flow a', 'ＳＩＧＮＵＰ wide', 'Login', 'sign', 'Resignup']) right(await app.identities.create(principal, { label }));
  const search = async (label: string) => right(await app.identities.list(principal, { label, limit: 50, offset: 0 }));
  t.deepEqual(labelsOf(await search('SIGNUP')), ['signup  flow a', 'Signup Flow B', 'ＳＩＧＮＵＰ wide']);
  t.deepEqual(labelsOf(await search('signup   FLOW')), ['signup  flow a', 'Signup Flow B'], 'spaces collapse in the query too');
  t.deepEqual(labelsOf(await search('sign')), ['sign', 'signup  flow a', 'Signup Flow B', 'ＳＩＧＮＵＰ wide']);
  t.like(await search('flow'), { items: [], total: 0 }, 'a word inside the label is not a prefix');
  t.is((await search('login')).total, 1);
});

test('label search: pages of a search are disjoint, in label order, and their total counts every match', async (t) => {
  const { app, principal } = await setup();
  for (let i = 0; i < 25; i += 1) right(await app.identities.create(principal, { label: `batch ${String(i).padStart(2, '0')}` }));
  right(await app.identities.create(principal, { label: 'other' }));
  const pages = [];
  for (const offset of [0, 10, 20]) pages.push(right(await app.identities.list(principal, { label: 'Batch', limit: 10, offset })));
  t.deepEqual(pages.map((p) => p.total), [25, 25, 25]);
  t.deepEqual(pages.flatMap(labelsOf), Array.from({ length: 25 }, (_, i) => `batch ${String(i).padStart(2, '0')}`));
});

test('label search: with a status, only identities of that status; never another project’s', async (t) => {
  const { app, principal } = await setup();
  const squashed = right(await app.identities.create(principal, { label: 'checkout one' }));
  right(await app.identities.create(principal, { label: 'checkout two' }));
  right(await app.identities.squash(principal, squashed.id));
  const other = await newPrincipal(app);
  right(await app.identities.create(other, { label: 'checkout elsewhere' }));
  t.deepEqual(labelsOf(right(await app.identities.list(principal, { label: 'checkout', status: 'squashed', limit: 50, offset: 0 }))), ['checkout one']);
  t.deepEqual(labelsOf(right(await app.identities.list(principal, { label: 'checkout', status: 'provisioned', limit: 50, offset: 0 }))), ['checkout two']);
  t.deepEqual(labelsOf(right(await app.identities.list(principal, { label: 'checkout', limit: 50, offset: 0 }))), ['checkout one', 'checkout two']);
});

test('label search: identities stored before the label key are given it at start-up, once, and are found', async (t) => {
  const store = createMemoryDocumentStore();
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  // An older version's identities: stored without `label_key`.
  const before = createEphemail({ store, inboxDomain: 'inbox.test', clock });
  await store.init([]);
  const principal = await newPrincipal(before);
  const old = right(await before.identities.create(principal, { label: 'Legacy Signup' }));
  const stored = (await store.get(C.identities, old.id)) as unknown as IdentityRecord & { version: number };
  const { label_key: _key, version, ...withoutKey } = stored;
  t.true(await store.replace(C.identities, withoutKey, version));
  t.is(((await store.get(C.identities, old.id)) as unknown as IdentityRecord).label_key, undefined);
  t.is(right(await before.identities.list(principal, { label: 'legacy', limit: 50, offset: 0 })).total, 0, 'not found before the migration');

  const after = createEphemail({ store, inboxDomain: 'inbox.test', clock });
  await after.init();
  t.is(((await store.get(C.identities, old.id)) as unknown as IdentityRecord).label_key, 'legacy signup');
  t.deepEqual(labelsOf(right(await after.identities.list(principal, { label: 'legacy', limit: 50, offset: 0 }))), ['Legacy Signup']);
  const version2 = (await store.get(C.identities, old.id))!.version;
  await createEphemail({ store, inboxDomain: 'inbox.test', clock }).init();
  t.is((await store.get(C.identities, old.id))!.version, version2, 'a second start writes nothing');
});

test('label key: NFKC, lower case, one space; a prefix range holds exactly the keys that start with it', (t) => {
  t.is(labelKey('  ＡＢＣ\t Def  '), 'abc def');
  const keys = ['ab', 'abc', 'ab\u{1F642}', 'abd', 'aa\u{FFFF}', 'a', 'ac'];
  const within = (prefix: string) => {
    const range = labelPrefixRange(prefix);
    return keys.filter((k) => k >= (range.gte as string) && k < (range.lt as string)).sort();
  };
  t.deepEqual(within('ab'), ['ab', 'ab\u{1F642}', 'abc', 'abd'].sort());
  t.deepEqual(within('\u{1F642}'), []);
  t.deepEqual(labelPrefixRange('x\u{1F642}').lt, 'x\u{1F643}');
});
