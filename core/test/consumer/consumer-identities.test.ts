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

test('consumer notifications: when the secret could not be mailed, the notification says so instead of where it was sent', async (t) => {
  const sent: string[] = [];
  let link = '';
  const app = createEphemail({
    store: createMemoryDocumentStore(),
    inboxDomain: 'inbox.test',
    clock: new FakeClock('2026-03-01T12:00:00.000Z'),
    // Every message reads as the same code mail; the pipeline runs for real from the parse on.
    parser: {
      parse: async () => ({
        ok: true,
        message: { envelopeFrom: '', from: { address: 'a@service.example', name: '' }, to: [], subject: 'Verify', date: null, messageId: '<n1@service.example>', headers: {}, text: 'Your verification code is 884120.', html: '', attachments: [] },
      }),
    },
    consumer: {
      // Sign-in links go out; the forwarded code's mail is refused by the relay.
      mailer: {
        send: async (mail) => {
          if (mail.subject.startsWith('Your code')) throw new Error('550 relay refused');
          link = /https?:\/\/\S+/.exec(mail.text)![0];
          sent.push(mail.to);
          return { messageId: `<${sent.length}@test>` };
        },
      },
    },
  });
  await app.init();
  const email = 'mailfails@example.com';
  right(await app.consumer.signUp({ email, clientIp: '127.0.0.1' }));
  const verified = right(await app.consumer.verify(new URL(link).searchParams.get('token')!));
  const { principal, consumer } = right(await app.consumer.authenticate(verified.session_token as string));
  const identity = right(await app.consumer.identities.create(principal, consumer, { label: 'x' }));
  await app.mail.ingress.deliver(Buffer.from('mail'), { transport: 'smtp', mailFrom: 'a@service.example', rcptTo: [identity.email] });
  await app.consumer.notifyTick('t');
  const list = right(await app.consumer.notifications.list(principal, { limit: 10, offset: 0 }));
  t.is(list.total, 1);
  t.is(list.items[0]!.body, `8•••0 (could not be mailed to ${email})`);
  t.deepEqual(sent, [email], 'only the sign-in link was mailed');
});
