import test from 'ava';
import type { DocumentStore, StoredDocument } from '@ephemail/core';
import { createMemoryDocumentStore, receiveMessage } from '@ephemail/core';
import type { IdentityRecord } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';
import { failingOnce, holdingAnswers, mail, outboxOnlyStore, principalFor, rightOf, service, smtpEnvelope, withIdentity } from './support.js';

/**
 * A delivery is recorded on its identity in one of two ways, by what the store offers: with
 * `transact`, the identity's update and its events' log entries in one atomic step; without it,
 * through the identity's outbox (update, then log positions, log inserts and the outbox cleared).
 * Every scenario here runs both ways, and the one step also on SQLite, where concurrent
 * deliveries share group-committed batches; each must leave the same state.
 */
const PATHS: readonly (readonly [string, () => DocumentStore])[] = [
  ['one step', createMemoryDocumentStore],
  ['one step, SQLite', () => createSqliteDocumentStore(openSqliteDatabase(':memory:'))],
  ['outbox', outboxOnlyStore],
];

const CODE = 'Hello,\n\nYour verification code is 583920.\nIt expires in 10 minutes.\n';

/** The identity's log in position order: every position from the first on, no gap rows. */
const logOf = async (store: DocumentStore, identityId: string): Promise<StoredDocument[]> =>
  store.find('events', { where: { identity_id: identityId }, sort: { field: 'position', direction: 'asc' } });

for (const [path, makeStore] of PATHS) {
  test(`recording (${path}): a delivery logs its events in history order and leaves no outbox`, async (t) => {
    const store = makeStore();
    t.is(store.transact !== undefined, path !== 'outbox');
    const app = service(store);
    await app.init();
    const principal = await principalFor(app);
    const identity = rightOf(await app.identities.create(principal, { label: path }));
    await app.mail.ingress.deliver(mail(identity.email, 'Your code', CODE), smtpEnvelope(identity.email));
    await app.mail.ingress.deliver(mail(identity.email, 'Hello again', 'No secret here.'), smtpEnvelope(identity.email));
    const log = await logOf(store, identity.id);
    t.deepEqual(
      log.map((e) => [e.seq, e.type]),
      [
        [1, 'identity.provisioned'],
        [2, 'identity.activated'],
        [3, 'email.received'],
        [4, 'extraction.completed'],
        [5, 'email.received'],
      ],
    );
    const positions = log.map((e) => e.position as number);
    t.deepEqual(positions, positions.map((_, i) => positions[0]! + i), 'consecutive log positions');
    t.is(await store.count('events', { where: { type: 'log.gap' } }), 0);
    const record = await store.get('identities', identity.id);
    t.like(record, { status: 'active', message_count: 2, event_count: 5, has_pending: false, pending_events: [] });
    t.is((record?.recent_message_ids as string[]).length, 2);
    t.is(rightOf(await app.extractions.latest(principal, identity.id, { waitSeconds: 0, reveal: true })).value, '583920');
  });

  test(`recording (${path}): twenty concurrent sessions log every event once, in history order`, async (t) => {
    const store = makeStore();
    const app = service(store);
    await app.init();
    const principal = await principalFor(app);
    const identity = rightOf(await app.identities.create(principal, { label: 'busy' }));
    let sent = 0;
    const session = async (): Promise<void> => {
      while (sent < 100) {
        sent += 1;
        const [outcome] = await app.mail.ingress.deliver(mail(identity.email, 'Busy', `message ${sent}`), smtpEnvelope(identity.email));
        t.like(outcome, { kind: 'stored', duplicate: false });
      }
    };
    await Promise.all(Array.from({ length: 20 }, session));
    const log = await logOf(store, identity.id);
    t.deepEqual(log.map((e) => e.seq), Array.from({ length: 102 }, (_, i) => i + 1));
    t.is(await store.count('events', { where: { type: 'log.gap' } }), 0);
    t.like(await store.get('identities', identity.id), { message_count: 100, pending_events: [] });
  });

  test(`recording (${path}): a failure while recording throws, and the retry records exactly once`, async (t) => {
    const store = failingOnce(makeStore());
    const app = service(store);
    await app.init();
    const principal = await principalFor(app);
    const identity = rightOf(await app.identities.create(principal, { label: 'crash' }));
    const raw = mail(identity.email, 'Your code', CODE);
    store.arm();
    await t.throwsAsync(() => app.mail.ingress.deliver(raw, smtpEnvelope(identity.email)), { message: /disk full/ });
    t.like(await store.get('identities', identity.id), { status: 'provisioned', message_count: 0 });
    const [retry] = await app.mail.ingress.deliver(raw, smtpEnvelope(identity.email));
    t.like(retry, { kind: 'stored', duplicate: false });
    t.deepEqual(
      (await logOf(store, identity.id)).map((e) => e.type),
      ['identity.provisioned', 'identity.activated', 'email.received', 'extraction.completed'],
    );
    t.is(rightOf(await app.messages.list(principal, identity.id, { limit: 10, offset: 0 })).total, 1);
    const [again] = await app.mail.ingress.deliver(raw, smtpEnvelope(identity.email));
    t.like(again, { kind: 'stored', duplicate: true });
    t.is((await logOf(store, identity.id)).length, 4);
  });

  test(`recording (${path}): ten sessions delivering one message at once record it once`, async (t) => {
    const store = makeStore();
    const app = service(store);
    await app.init();
    const principal = await principalFor(app);
    const identity = rightOf(await app.identities.create(principal, { label: 'same' }));
    const raw = mail(identity.email, 'Same', 'Your code is 604211');
    const outcomes = (await Promise.all(Array.from({ length: 10 }, () => app.mail.ingress.deliver(raw, smtpEnvelope(identity.email))))).flat();
    t.is(new Set(outcomes.map((o) => (o.kind === 'stored' ? o.messageId : o.kind))).size, 1);
    t.is(outcomes.filter((o) => o.kind === 'stored' && !o.duplicate).length, 1);
    t.is(await store.count('messages', { where: { identity_id: identity.id } }), 1);
    t.is(await store.count('events', { where: { identity_id: identity.id, type: 'email.received' } }), 1);
    t.is(await store.count('events', { where: { identity_id: identity.id, type: 'extraction.completed' } }), 1);
    t.like(await store.get('identities', identity.id), { message_count: 1, pending_events: [] });
  });

  test(`recording (${path}): twenty deliveries at once one short of the limit store one, and keep nothing of the rest`, async (t) => {
    const store = makeStore();
    const app = service(store, undefined, 3);
    const { identity } = await withIdentity(app, 'quota');
    const first = mail(identity.email, 'Code 1', CODE);
    for (const raw of [first, mail(identity.email, 'Code 2', CODE)]) await app.mail.ingress.deliver(raw, smtpEnvelope(identity.email));
    // Every delivery's precheck reads two messages, under the limit of three.
    const outcomes = (await Promise.all(Array.from({ length: 20 }, (_, n) => app.mail.ingress.deliver(mail(identity.email, `Rush ${n}`, CODE), smtpEnvelope(identity.email))))).flat();
    t.is(outcomes.filter((o) => o.kind === 'stored').length, 1);
    t.is(outcomes.filter((o) => o.kind === 'rejected' && o.reason === 'over_quota').length, 19);
    t.like(await store.get('identities', identity.id), { message_count: 3, pending_events: [] });
    t.is(await store.count('messages', { where: { identity_id: identity.id } }), 3);
    t.is(await store.count('extractions', {}), 3);
    t.is(await store.count('message_chunks', {}), 3);
    t.is(await store.count('events', { where: { identity_id: identity.id, type: 'email.received' } }), 3);
    t.deepEqual(await app.mail.ingress.checkRecipient(identity.email), { kind: 'over_quota' });
    // At the limit, a redelivery of a message it holds (an IMAP re-scan) is recognised, not refused.
    t.like((await app.mail.ingress.deliver(first, smtpEnvelope(identity.email)))[0], { kind: 'stored', duplicate: true });
    t.like((await app.mail.ingress.deliver(mail(identity.email, 'One more', CODE), smtpEnvelope(identity.email)))[0], { kind: 'rejected', reason: 'over_quota' });
    t.is(await store.count('messages', {}), 3);
  });

  test(`recording (${path}): a delivery to an identity squashed since its precheck keeps nothing`, async (t) => {
    const store = makeStore();
    const app = service(store);
    const { principal, identity } = await withIdentity(app, 'late');
    const prechecked = (await store.get('identities', identity.id)) as unknown as IdentityRecord;
    rightOf(await app.identities.squash(principal, identity.id));
    const raw = mail(identity.email, 'Your code', CODE);
    const parsed = await createPostalMimeMailParser({ timeBudgetMs: 20_000 }).parse(raw);
    if (!parsed.ok) return t.fail('the message parses');
    const outcome = await receiveMessage(app.deps, { identity: prechecked, recipient: identity.email, raw, parsed: parsed.message, envelope: smtpEnvelope(identity.email), authentication: null });
    t.deepEqual(outcome, { kind: 'not_live', status: 'squashed' });
    t.is(await store.count('messages', {}), 0);
    t.is(await store.count('extractions', {}), 0);
    t.is(await store.count('message_chunks', {}), 0);
    t.is(await store.count('events', { where: { identity_id: identity.id, type: 'email.received' } }), 0);
  });
}

for (const [path, makeStore] of PATHS.filter(([path]) => path !== 'outbox')) {
  test(`recording (${path}): a delivery's step does not wait for the answer to the step before it`, async (t) => {
    const held = holdingAnswers(makeStore());
    const app = service(held.store);
    const { principal, identity } = await withIdentity(app, 'overlap');
    held.hold();
    const first = app.mail.ingress.deliver(mail(identity.email, 'First', 'one'), smtpEnvelope(identity.email));
    await held.steps(1);
    const second = app.mail.ingress.deliver(mail(identity.email, 'Your code', CODE), smtpEnvelope(identity.email));
    // Before, the second recording waited for the first's answer, which never came.
    const stepped = await Promise.race([held.steps(2).then(() => true), new Promise<false>((resolve) => setTimeout(resolve, 30_000, false))]);
    t.true(stepped, "the second delivery's step ran while the first one's answer was held");
    held.release();
    const outcomes = (await Promise.all([first, second])).flat();
    t.like(outcomes, [{ kind: 'stored', duplicate: false }, { kind: 'stored', duplicate: false }]);
    t.like(await held.store.get('identities', identity.id), { message_count: 2, pending_events: [] });
    const log = await logOf(held.store, identity.id);
    t.deepEqual(log.map((e) => e.seq), [1, 2, 3, 4, 5]);
    t.is(rightOf(await app.extractions.latest(principal, identity.id, { waitSeconds: 0, reveal: true })).value, '583920');
  });
}

test('recording (one step): an outbox event another process already logged sends the recording through the outbox', async (t) => {
  const store = createMemoryDocumentStore();
  const app = service(store);
  await app.init();
  const principal = await principalFor(app);
  const identity = rightOf(await app.identities.create(principal, { label: 'race' }));
  // Another process left an event in the outbox and logged it, but has not cleared the outbox
  // yet: the one-step plan would insert it again, so the store refuses the plan.
  const current = (await store.get('identities', identity.id))!;
  const pending = { id: 'evt_left_behind', type: 'identity.renamed', identity_id: identity.id, seq: (current.event_count as number) + 1, org_id: current.org_id, project_id: current.project_id, occurred_at: '2026-04-01T10:00:00.000Z', data: {} };
  const { version, ...fields } = current;
  t.true(await store.replace('identities', { ...fields, pending_events: [pending], event_count: pending.seq, has_pending: true }, version));
  t.is(await store.insert('events', { ...pending, position: 1_000 }), 'inserted');

  const [outcome] = await app.mail.ingress.deliver(mail(identity.email, 'Your code', CODE), smtpEnvelope(identity.email));
  t.like(outcome, { kind: 'stored', duplicate: false });
  const events = await store.find('events', { where: { identity_id: identity.id }, sort: { field: 'seq', direction: 'asc' } });
  t.deepEqual(
    events.map((e) => e.type),
    ['identity.provisioned', 'identity.renamed', 'identity.activated', 'email.received', 'extraction.completed'],
  );
  t.is(events.filter((e) => e.id === 'evt_left_behind').length, 1, 'logged once');
  // The outbox's flush met the logged event and marked the position it had taken for it.
  t.is(await store.count('events', { where: { type: 'log.gap' } }), 1);
  t.like(await store.get('identities', identity.id), { message_count: 1, pending_events: [], has_pending: false });
  // Stored on its own after the refusal, so under the names derived from the message (ADR 0029).
  if (outcome?.kind !== 'stored') return;
  const message = (await store.get('messages', outcome.messageId))!;
  t.false('raw_key' in message);
  t.truthy(await store.get('message_chunks', `${outcome.messageId}:0`));
  t.is(await store.count('message_chunks', {}), 1);
  t.is(await store.count('extractions', {}), 1);
});
