import test from 'ava';
import type { DocumentStore } from '@ephemail/core';
import { createMailIngress, createMemoryDocumentStore } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { mail, overriding, rightOf, service, smtpEnvelope, withIdentity } from './support.js';

/**
 * RCPT's read of an identity answers the recipient checks that follow it for `precheckFreshMs`,
 * unless the process hears of an event of the identity first. These tests count the store's
 * reads of identities under a store wrapper.
 */
const counting = (inner: DocumentStore) => {
  let reads = 0;
  let failNext = false;
  const store = overriding(inner, {
    get: async (collection: string, id: string) => {
      if (collection === 'identities') {
        reads += 1;
        if (failNext) {
          failNext = false;
          throw new Error('store unavailable');
        }
      }
      return inner.get(collection, id);
    },
  });
  return { store, reads: () => reads, failOnce: () => void (failNext = true) };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An ingress of its own over `app`'s core, so the test chooses how long a read stays fresh. */
const ingressOf = (app: ReturnType<typeof service>, precheckFreshMs: number) =>
  createMailIngress(app.deps, { parser: createPostalMimeMailParser({ timeBudgetMs: 20_000 }), maxMessagesPerIdentity: 2, precheckFreshMs });

/** A service over a counting store, one identity, and an ingress whose reads stay fresh `precheckFreshMs`. */
const counted = async (label: string, precheckFreshMs: number) => {
  const { store, reads, failOnce } = counting(createMemoryDocumentStore());
  const app = service(store);
  const { identity } = await withIdentity(app, label);
  return { identity, ingress: ingressOf(app, precheckFreshMs), reads, failOnce };
};

test('precheck: checks within the freshness share one read of the identity; a later check reads it again', async (t) => {
  // A freshness that ten checks never outlast, even on a busy machine; the wait outlasts it.
  const { identity, ingress, reads } = await counted('busy', 2_000);
  const before = reads();
  for (let n = 0; n < 5; n += 1) t.is((await ingress.checkRecipient(identity.email)).kind, 'accept');
  await Promise.all(Array.from({ length: 5 }, () => ingress.checkRecipient(identity.email)));
  t.is(reads() - before, 1);
  await sleep(2_100);
  t.is((await ingress.checkRecipient(identity.email)).kind, 'accept');
  t.is(reads() - before, 2);
});

test('precheck: a squash in this process is seen by the next check at once, however fresh the read', async (t) => {
  const app = service();
  const { principal, identity } = await withIdentity(app, 'squash');
  const ingress = ingressOf(app, 60_000);
  t.is((await ingress.checkRecipient(identity.email)).kind, 'accept');
  rightOf(await app.identities.squash(principal, identity.id));
  t.deepEqual(await ingress.checkRecipient(identity.email), { kind: 'squashed' });
});

test('precheck: a message recorded in this process is counted by the next check at once', async (t) => {
  const app = service();
  const { identity } = await withIdentity(app, 'quota');
  const ingress = ingressOf(app, 60_000);
  t.is((await ingress.checkRecipient(identity.email)).kind, 'accept');
  for (const n of [1, 2]) await ingress.deliver(mail(identity.email, `m${n}`, 'hi'), smtpEnvelope(identity.email));
  t.deepEqual(await ingress.checkRecipient(identity.email), { kind: 'over_quota' });
});

test('precheck: a change made by another process is seen once the read is older than the freshness', async (t) => {
  const store = createMemoryDocumentStore();
  const here = service(store);
  const { principal, identity } = await withIdentity(here, 'elsewhere');
  const ingress = ingressOf(here, 100);
  t.is((await ingress.checkRecipient(identity.email)).kind, 'accept');
  // Another service over the same store: its events are not published in this one.
  const there = service(store);
  rightOf(await there.identities.squash(principal, identity.id));
  await sleep(200);
  t.deepEqual(await ingress.checkRecipient(identity.email), { kind: 'squashed' });
});

test('precheck: with a freshness of 0 every check reads the identity', async (t) => {
  const { identity, ingress, reads } = await counted('always', 0);
  const before = reads();
  for (let n = 0; n < 3; n += 1) await ingress.checkRecipient(identity.email);
  t.is(reads() - before, 3);
});

test('precheck: a failed read is not kept; the next check reads again', async (t) => {
  const { identity, ingress, reads, failOnce } = await counted('flaky', 60_000);
  failOnce();
  await t.throwsAsync(() => ingress.checkRecipient(identity.email), { message: 'store unavailable' });
  const before = reads();
  t.is((await ingress.checkRecipient(identity.email)).kind, 'accept');
  t.is(reads() - before, 1);
});

test('precheck: a freshness that is negative or not finite is refused at creation', (t) => {
  const app = service();
  for (const precheckFreshMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) t.throws(() => ingressOf(app, precheckFreshMs), { instanceOf: RangeError });
});
