import test from 'ava';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { DOMAIN, mail, principalFor, rightOf, smtpEnvelope } from './support.js';

// Two services over one store, as two host processes over one database: the one that waits
// learns of the mail only by polling the store.
const pair = (pollMs: number) => {
  const store = createMemoryDocumentStore();
  const clock = new FakeClock('2026-04-01T10:00:00.000Z');
  const make = () => createEphemail({ store, inboxDomain: DOMAIN, clock, parser: createPostalMimeMailParser({ timeBudgetMs: 20_000 }), longPollIntervalMs: pollMs });
  return { waiting: make(), receiving: make() };
};

test('long-poll: mail delivered by another process just after the wait began answers at the next poll, not at the deadline', async (t) => {
  const { waiting, receiving } = pair(300);
  await waiting.init();
  const principal = await principalFor(waiting);
  const identity = rightOf(await waiting.identities.create(principal, { label: 'poll' }));
  const started = Date.now();
  const answer = waiting.extractions.latest(principal, identity.id, { waitSeconds: 30, reveal: true });
  // Between the waiter's own check and the shared poll loop's first look at the store.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const [outcome] = await receiving.mail.ingress.deliver(
    mail(identity.email, 'Your sign-in code', 'Your verification code is 583920.\n'),
    smtpEnvelope(identity.email),
  );
  t.is(outcome?.kind, 'stored');
  t.is(rightOf(await answer).value, '583920');
  const waited = Date.now() - started;
  // Before the fix the waiter took the changed version as its baseline and slept to the 30 s deadline.
  t.true(waited < 20_000, `answered after ${waited} ms of a 30,000 ms wait`);
});
