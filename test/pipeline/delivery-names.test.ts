import test from 'ava';
import { createHash } from 'node:crypto';
import type { DocumentStore } from '@ephemail/core';
import { createMemoryDocumentStore } from '@ephemail/core';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';
import { mail, outboxOnlyStore, rightOf, service, smtpEnvelope, withIdentity, withoutTransact } from './support.js';

/**
 * What a delivery names the documents it brings beside its message record (ADR 0029). Stored in
 * the step that records it, they get new time-ordered ids and the record names its slices by
 * `raw_key`; stored on their own, they get ids derived from the message id, as every message
 * stored before had, and a redelivery of either kind is recognised.
 */
const ONE_STEP: readonly (readonly [string, () => DocumentStore])[] = [
  ['one step', createMemoryDocumentStore],
  ['one step, SQLite', () => createSqliteDocumentStore(openSqliteDatabase(':memory:'))],
];

const CODE = 'Hello,\n\nYour verification code is 583920.\nIt expires in 10 minutes.\n';

/** The derived names, written out: messages stored under them must stay readable and recognised. */
const derived = (prefix: string, ...parts: string[]): string => `${prefix}_${createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 24)}`;

/** The time part of an id (ADR 0014): eight base-62 digits that sort as the times do. */
const timeOf = (id: string): string => id.slice(id.indexOf('_') + 1, id.indexOf('_') + 9);

const namesOf = async (store: DocumentStore, identityId: string, messageId: string) => {
  const record = (await store.get('messages', messageId))!;
  const events = await store.find('events', { where: { identity_id: identityId }, sort: { field: 'seq', direction: 'asc' } });
  const idOf = (type: string) => events.filter((e) => e.type === type && (e.data as { message_id?: string }).message_id === messageId).map((e) => e.id);
  const extraction = record.extraction_id as string;
  const completed = events.filter((e) => e.type === 'extraction.completed' && (e.data as { extraction_id?: string }).extraction_id === extraction).map((e) => e.id);
  return { record, extraction, received: idOf('email.received'), completed };
};

for (const [path, makeStore] of [...ONE_STEP, ['outbox', outboxOnlyStore] as const]) {
  test(`names (${path}): a redelivery after the message left the identity's recent ids is still recognised`, async (t) => {
    const store = makeStore();
    const app = service(store);
    const { identity } = await withIdentity(app, 'window');
    const first = mail(identity.email, 'Your code', CODE);
    t.like((await app.mail.ingress.deliver(first, smtpEnvelope(identity.email)))[0], { kind: 'stored', duplicate: false });
    // 64 more: the first message's id is no longer among the identity's recent ids.
    for (let n = 0; n < 64; n += 1) await app.mail.ingress.deliver(mail(identity.email, `Filler ${n}`, 'nothing'), smtpEnvelope(identity.email));
    const before = await store.get('identities', identity.id);
    t.is((before?.recent_message_ids as string[]).length, 64);
    const [again] = await app.mail.ingress.deliver(first, smtpEnvelope(identity.email));
    if (again?.kind !== 'stored') return t.fail();
    t.true(again.duplicate);
    t.false((before?.recent_message_ids as string[]).includes(again.messageId));
    t.like(await store.get('identities', identity.id), { message_count: 65, event_count: before?.event_count, pending_events: [] });
    t.is(await store.count('events', { where: { identity_id: identity.id, type: 'email.received' } }), 65);
    t.is(await store.count('events', { where: { type: 'log.gap' } }), 0);
    t.is(await store.count('messages', {}), 65);
    t.is(await store.count('message_chunks', {}), 65);
    t.is(await store.count('extractions', {}), 1);
  });
}

for (const [path, makeStore] of ONE_STEP) {
  test(`names (${path}): slices, extraction and events get time-ordered ids, in delivery order, and read back`, async (t) => {
    const store = makeStore();
    const app = service(store);
    const { principal, identity } = await withIdentity(app, 'ordered');
    const keys: string[][] = [];
    for (const n of [1, 2, 3]) {
      const raw = mail(identity.email, `Code ${n}`, CODE);
      const [outcome] = await app.mail.ingress.deliver(raw, smtpEnvelope(identity.email));
      if (outcome?.kind !== 'stored') return t.fail();
      t.is(outcome.messageId, derived('msg', identity.id, (/Message-ID: (\S+)/.exec(raw.toString()) ?? [])[1]!, 'bounce@app.example.com', createHash('sha256').update(raw).digest('hex')));
      const { record, extraction, received, completed } = await namesOf(store, identity.id, outcome.messageId);
      t.regex(String(record.raw_key), /^raw_[0-9A-Za-z]{8}[\w-]{24}$/);
      t.regex(extraction, /^ext_[0-9A-Za-z]{8}[\w-]{24}$/);
      t.is(received.length, 1);
      t.is(completed.length, 1);
      t.regex(received[0]!, /^evt_[0-9A-Za-z]{8}[\w-]{24}$/);
      t.not(received[0], derived('evt', outcome.messageId, 'email.received'));
      t.not(completed[0], received[0]);
      t.truthy(await store.get('message_chunks', `${String(record.raw_key)}:0`));
      t.is(await store.get('message_chunks', `${outcome.messageId}:0`), undefined, 'no slice under the derived name');
      t.true(rightOf(await app.messages.raw(principal, identity.id, outcome.messageId)).equals(raw));
      keys.push([String(record.raw_key), extraction, received[0]!, completed[0]!]);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    // Later deliveries sort after earlier ones in every collection.
    for (const column of [0, 1, 2, 3]) {
      const times = keys.map((row) => timeOf(row[column]!));
      t.deepEqual([...times].sort(), times);
      t.true(times[0]! < times[2]!, `the time part of ${keys[0]![column]} is before that of ${keys[2]![column]}`);
    }
    t.is(await store.count('message_chunks', {}), 3);
    t.is(await store.count('extractions', {}), 3);
  });

  test(`names (${path}): a message stored by an earlier version (derived names) is read and recognised`, async (t) => {
    const store = makeStore();
    // Stored as a store without `transact` stores it: the names every earlier version gave.
    const earlier = service(withoutTransact(store));
    const { principal, identity } = await withIdentity(earlier, 'earlier');
    const raw = mail(identity.email, 'Your code', CODE);
    const [stored] = await earlier.mail.ingress.deliver(raw, smtpEnvelope(identity.email));
    if (stored?.kind !== 'stored') return t.fail();
    const names = await namesOf(store, identity.id, stored.messageId);
    t.is(names.record.raw_key, undefined);
    t.is(names.extraction, derived('ext', stored.messageId));
    t.deepEqual(names.received, [derived('evt', stored.messageId, 'email.received')]);
    t.deepEqual(names.completed, [derived('evt', stored.messageId, 'extraction.completed')]);
    t.truthy(await store.get('message_chunks', `${stored.messageId}:0`));

    const app = service(store);
    await app.init();
    t.true(rightOf(await app.messages.raw(principal, identity.id, stored.messageId)).equals(raw));
    t.like((await app.mail.ingress.deliver(raw, smtpEnvelope(identity.email)))[0], { kind: 'stored', messageId: stored.messageId, duplicate: true });
    t.is(await store.count('message_chunks', {}), 1);
    t.is(await store.count('extractions', {}), 1);
    t.is(await store.count('events', { where: { identity_id: identity.id, type: 'email.received' } }), 1);
    // Still a duplicate once it has left the identity's recent ids: its event is in the log.
    for (let n = 0; n < 64; n += 1) await app.mail.ingress.deliver(mail(identity.email, `Filler ${n}`, 'nothing'), smtpEnvelope(identity.email));
    t.like((await app.mail.ingress.deliver(raw, smtpEnvelope(identity.email)))[0], { kind: 'stored', messageId: stored.messageId, duplicate: true });
    t.like(await store.get('identities', identity.id), { message_count: 65, pending_events: [] });
    t.is(await store.count('events', { where: { identity_id: identity.id, type: 'email.received' } }), 65);
    t.is(await store.count('events', { where: { type: 'log.gap' } }), 0);
  });

  test(`names (${path}): a store without \`transact\` that meets a message stored in one step keeps nothing of its own`, async (t) => {
    const store = makeStore();
    const app = service(store);
    const { principal, identity } = await withIdentity(app, 'mixed');
    const raw = mail(identity.email, 'Your code', CODE);
    const [stored] = await app.mail.ingress.deliver(raw, smtpEnvelope(identity.email));
    if (stored?.kind !== 'stored') return t.fail();
    const other = service(withoutTransact(store));
    await other.init();
    t.like((await other.mail.ingress.deliver(raw, smtpEnvelope(identity.email)))[0], { kind: 'stored', messageId: stored.messageId, duplicate: true });
    // The slices and the extraction it wrote under the derived names were taken back.
    t.is(await store.count('message_chunks', {}), 1);
    t.is(await store.count('extractions', {}), 1);
    t.is(await store.count('events', { where: { identity_id: identity.id, type: 'email.received' } }), 1);
    t.like(await store.get('identities', identity.id), { message_count: 1, pending_events: [] });
    t.true(rightOf(await other.messages.raw(principal, identity.id, stored.messageId)).equals(raw));
  });
}

test('names (outbox): a store without `transact` names everything after the message', async (t) => {
  const store = outboxOnlyStore();
  const app = service(store);
  const { principal, identity } = await withIdentity(app, 'outbox');
  const raw = mail(identity.email, 'Your code', CODE);
  const [outcome] = await app.mail.ingress.deliver(raw, smtpEnvelope(identity.email));
  if (outcome?.kind !== 'stored') return t.fail();
  const { record, extraction, received, completed } = await namesOf(store, identity.id, outcome.messageId);
  t.false('raw_key' in record);
  t.is(extraction, derived('ext', outcome.messageId));
  t.deepEqual(received, [derived('evt', outcome.messageId, 'email.received')]);
  t.deepEqual(completed, [derived('evt', outcome.messageId, 'extraction.completed')]);
  t.true(rightOf(await app.messages.raw(principal, identity.id, outcome.messageId)).equals(raw));
});

