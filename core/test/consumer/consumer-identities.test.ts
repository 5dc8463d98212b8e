import * as E from 'fp-ts/lib/Either.js';
import test from 'ava';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../../src/index.js';
import { right, tagOf } from '../support.js';

/** A service on the memory store, and a signed-in trial consumer of it. */
const signedIn = async () => {
  const links: string[] = [];
  const app = createEphemail({
    store: createMemoryDocumentStore(),
    inboxDomain: 'inbox.test',
    clock: new FakeClock('2026-03-01T12:00:00.000Z'),
    consumer: { onMagicLink: (_email, link) => links.push(link) },
  });
  await app.init();
  right(await app.consumer.signUp({ email: `p${Math.random().toString(36).slice(2)}@example.com`, clientIp: '127.0.0.1' }));
  const token = new URL(links[0]!).searchParams.get('token')!;
  const verified = right(await app.consumer.verify(token));
  const session = right(await app.consumer.authenticate(verified.session_token as string));
  return { app, ...session };
};

test('consumer identities: of 12 parallel creates by a trial consumer exactly 3 succeed, the rest answer identity_limit_reached', async (t) => {
  const { app, principal, consumer } = await signedIn();
  const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => app.consumer.identities.create(principal, consumer, { label: `race ${i}` })));
  t.is(outcomes.filter(E.isRight).length, 3);
  t.deepEqual([...new Set(outcomes.filter(E.isLeft).map(tagOf))], ['IdentityLimitReached']);
  const listed = right(await app.consumer.identities.list(principal, { limit: 20, offset: 0 }));
  t.is(listed.total, 3);
});

test('consumer identities: a squashed identity gives its place back to the consumer', async (t) => {
  const { app, principal, consumer } = await signedIn();
  const made = await Promise.all([0, 1, 2].map((i) => app.consumer.identities.create(principal, consumer, { label: `n${i}` })));
  t.is(tagOf(await app.consumer.identities.create(principal, consumer, { label: 'over' })), 'IdentityLimitReached');
  right(await app.identities.squash(principal, right(made[0]!).id));
  t.is(tagOf(await app.consumer.identities.create(principal, consumer, { label: 'again' })), 'Right');
});
