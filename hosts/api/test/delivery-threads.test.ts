import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { EventRecord, InboundEnvelope, MailIngress, Principal } from '@ephemail/core';
import { createEphemail, createTally, METRICS } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import * as E from 'fp-ts/lib/Either.js';
import type { DeliveryThreadsOptions } from '../src/delivery-threads.js';
import { startDeliveryThreads } from '../src/delivery-threads.js';
import { openStore } from '../src/store-factory.js';

const DOMAIN = 'mx.test';
const FAULTY = new URL('./fixtures/faulty-delivery-thread.ts', import.meta.url);
const BROKEN = new URL('./fixtures/broken-delivery-thread.ts', import.meta.url);

const right = <A>(either: E.Either<{ _tag: string }, A>): A => {
  if (E.isLeft(either)) throw new Error(`expected Right, got ${either.left._tag}`);
  return either.right;
};

const mail = (to: string, code: string, extraHeaders: readonly string[] = []): Uint8Array =>
  Buffer.from(
    [
      'From: Example App <no-reply@app.example.com>',
      `To: ${to}`,
      'Subject: Your sign-in code',
      `Message-ID: <${randomUUID()}@app.example.com>`,
      'Date: Tue, 24 Nov 2026 10:00:00 +0000',
      ...extraHeaders,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      `Your verification code is ${code}. It expires in 10 minutes.`,
      '',
    ].join('\r\n'),
  );

/** Messages stored for the identity, read over the host thread's connection. */
const messageCount = async (app: ReturnType<typeof createEphemail>, principal: Principal, identityId: string): Promise<number> =>
  right(await app.messages.list(principal, identityId, { limit: 100, offset: 0 })).items.length;

const envelope = (to: string): InboundEnvelope => ({ transport: 'smtp', mailFrom: 'bounce@app.example.com', rcptTo: [to] });

/**
 * A core over a SQLite file (the host thread's side), an identity to mail, and delivery threads
 * over the same file. The host's own ingress is wrapped to count the deliveries it made itself.
 */
const setup = async (t: { teardown(fn: () => Promise<void> | void): void }, options: Partial<DeliveryThreadsOptions> = {}, parseThreads = 0) => {
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-delivery-threads-'));
  const databaseUrl = `sqlite:${join(dir, 'mx.db')}`;
  const app = createEphemail({ store: openStore(databaseUrl), inboxDomain: DOMAIN, parser: createPostalMimeMailParser({ timeBudgetMs: 60_000 }) });
  await app.init();
  const key = right(await app.auth.createApiKey({ orgId: 'org_t', projectIds: ['proj_t'], scopes: ['identities:read', 'identities:write', 'secrets:read'], plan: 'growth' }));
  const principal: Principal = right(await app.auth.authenticate({ authorization: `Bearer ${key.key}`, orgId: 'org_t', projectId: 'proj_t' }));
  const identity = right(await app.identities.create(principal, { label: 'threads' }));
  let localDeliveries = 0;
  const local: MailIngress = {
    checkRecipient: app.mail.ingress.checkRecipient,
    deliver: (raw, env) => {
      localDeliveries += 1;
      return app.mail.ingress.deliver(raw, env);
    },
  };
  const events: EventRecord[] = [];
  const warnings: string[] = [];
  const threads = startDeliveryThreads({
    // A parse budget no parse here comes near: a busy machine must not turn a delivery into a 451 (the budget has tests of its own in mail-parse).
    setup: { databaseUrl, inboxDomain: DOMAIN, maxMessageBytes: 1024 * 1024, maxMessagesPerIdentity: 1000, mailAuth: false, dnsServers: undefined, parseThreads, parseTimeBudgetMs: 60_000 },
    local,
    onEvent: (event) => events.push(event),
    onWarning: (message) => warnings.push(message),
    // Threads compile their modules through tsx here: on a busy machine that outlasts the 30 s default.
    loadTimeoutMs: 600_000,
    ...options,
  });
  t.teardown(async () => {
    await threads.close(1000);
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { app, principal, identity, threads, events, warnings, localDeliveries: () => localDeliveries };
};

test('delivery threads: a message is stored by the thread, seen over the host connection, and its events reach the host in log order', async (t) => {
  const { app, principal, identity, threads, events, localDeliveries } = await setup(t);
  const outcomes = await threads.ingress.deliver(mail(identity.email, '482913'), envelope(identity.email));
  t.is(outcomes.length, 1);
  t.like(outcomes[0], { kind: 'stored', identityId: identity.id, duplicate: false });
  t.is(localDeliveries(), 0);

  const latest = right(await app.extractions.latest(principal, identity.id, { waitSeconds: 0, reveal: true }));
  t.like(latest, { type: 'otp', value: '482913' });
  const mine = events.filter((event) => event.identity_id === identity.id);
  t.deepEqual(mine.map((event) => event.type), ['identity.activated', 'email.received', 'extraction.completed']);
  const logged = right(await app.events.list(principal, identity.id, { limit: 10, offset: 0 }));
  t.deepEqual(
    mine.map((event) => event.id),
    logged.items.filter((event) => event.type !== 'identity.provisioned').map((event) => event.id).reverse(),
  );
});

test('delivery threads: what a thread counts reaches the host by the time the delivery is answered', async (t) => {
  const host = createTally();
  const { identity, threads } = await setup(t, { onMetrics: (tally) => host.merge(tally) });
  const count = (metric: Parameters<typeof host.series>[0], label: string) => host.series(metric).get(label)?.[0] ?? 0;
  const observations = (metric: 'ephemail_store_operation_duration_seconds', label: string) =>
    host.series(metric).get(label)?.[METRICS[metric].buckets.length + 2] ?? 0;
  await threads.ingress.deliver(mail(identity.email, '482913'), envelope(identity.email));
  t.is(count('ephemail_extractions_total', 'otp,high') + count('ephemail_extractions_total', 'otp,medium'), 1, 'counted before the answer came back');
  t.true(observations('ephemail_store_operation_duration_seconds', 'transact') >= 1, "the thread's own store is timed");
  // Over the thread's 1 MiB cap: its parser refuses it.
  await threads.ingress.deliver(Buffer.alloc(2 * 1024 * 1024, 'a'), envelope(identity.email));
  t.is(count('ephemail_parse_failures_total', 'too_large'), 1);
});

test('delivery threads: with a parse thread of its own (used from 16 KiB), a thread delivers large and small messages with their codes found', async (t) => {
  const { app, principal, identity, threads } = await setup(t, {}, 1);
  const padding = Array.from({ length: 400 }, (_, i) => `Line ${i} of the terms you agreed to, kept here for your records.`).join('\r\n');
  const large = Buffer.from(Buffer.from(mail(identity.email, '864209')).toString('latin1').replace('It expires in 10 minutes.', `It expires in 10 minutes.\r\n\r\n${padding}`), 'latin1');
  t.true(large.byteLength > 16 * 1024);
  const parsedHere = await createPostalMimeMailParser({ timeBudgetMs: 60_000 }).parse(large);
  const [stored] = await threads.ingress.deliver(Buffer.from(large), envelope(identity.email));
  if (stored?.kind !== 'stored') return t.fail();
  t.like(right(await app.extractions.latest(principal, identity.id, { waitSeconds: 0, reveal: true })), { type: 'otp', value: '864209' });
  // The parse thread handed the plain body back as a span of the raw bytes: it reads back whole.
  t.is(right(await app.messages.get(principal, identity.id, stored.messageId, { reveal: true })).text, parsedHere.ok ? parsedHere.message.text : 'unparsed');
  t.like((await threads.ingress.deliver(mail(identity.email, '135792'), envelope(identity.email)))[0], { kind: 'stored', duplicate: false });
  t.like(right(await app.extractions.latest(principal, identity.id, { waitSeconds: 0, reveal: true })), { type: 'otp', value: '135792' });
});

test('delivery threads: a buffer that holds the message alone moves to the thread; a view into a shared one is copied and left intact', async (t) => {
  const { app, principal, identity, threads } = await setup(t);
  const owned = new Uint8Array(mail(identity.email, '246810'));
  t.is(owned.byteLength, owned.buffer.byteLength);
  t.like((await threads.ingress.deliver(owned, envelope(identity.email)))[0], { kind: 'stored', duplicate: false });
  t.is(owned.byteLength, 0, 'handed over without a copy');
  t.like(right(await app.extractions.latest(principal, identity.id, { waitSeconds: 0, reveal: true })), { value: '246810' });
  // A message inside a larger buffer (Node's pool for small buffers): the rest must stay usable.
  const message = mail(identity.email, '975310');
  const shared = new Uint8Array(message.byteLength + 64);
  shared.set(message, 32);
  const view = shared.subarray(32, 32 + message.byteLength);
  t.like((await threads.ingress.deliver(view, envelope(identity.email)))[0], { kind: 'stored', duplicate: false });
  t.is(view.byteLength, message.byteLength);
  t.is(shared.buffer.byteLength, message.byteLength + 64);
  t.like(right(await app.extractions.latest(principal, identity.id, { waitSeconds: 0, reveal: true })), { value: '975310' });
});

test('delivery threads: a redelivery is recognised across connections, whichever side stores first', async (t) => {
  const { app, identity, threads } = await setup(t);
  const raw = mail(identity.email, '730552');
  const first = await threads.ingress.deliver(raw, envelope(identity.email));
  const again = await app.mail.ingress.deliver(raw, envelope(identity.email));
  const third = await threads.ingress.deliver(raw, envelope(identity.email));
  t.like(first[0], { kind: 'stored', duplicate: false });
  t.like(again[0], { kind: 'stored', duplicate: true });
  t.like(third[0], { kind: 'stored', duplicate: true });
  const [messageId] = [first[0]].map((outcome) => (outcome?.kind === 'stored' ? outcome.messageId : ''));
  t.true([again[0], third[0]].every((outcome) => outcome?.kind === 'stored' && outcome.messageId === messageId));
});

test('delivery threads: twenty deliveries at once to one identity are each stored and evented once', async (t) => {
  const { app, principal, identity, threads, events } = await setup(t);
  const codes = Array.from({ length: 20 }, (_, i) => String(310_000 + i * 7));
  const outcomes = await Promise.all(codes.map((code) => threads.ingress.deliver(mail(identity.email, code), envelope(identity.email))));
  t.true(outcomes.every(([outcome]) => outcome?.kind === 'stored' && !outcome.duplicate));
  t.is(await messageCount(app, principal, identity.id), 20);
  t.is(events.filter((event) => event.type === 'email.received').length, 20);
  t.is(events.filter((event) => event.type === 'identity.activated').length, 1);
});

test('delivery threads: a thread that dies fails what it held (SMTP answers 451) and is replaced', async (t) => {
  const { app, principal, identity, threads, warnings, localDeliveries } = await setup(t, { workerModule: FAULTY });
  // A first delivery shows the thread has loaded: one that dies before is a failed load (below).
  t.like((await threads.ingress.deliver(mail(identity.email, '100200'), envelope(identity.email)))[0], { kind: 'stored' });
  const crashed = await threads.ingress.deliver(mail(identity.email, '111111', ['X-Test-Fault: exit']), envelope(identity.email)).catch((error: Error) => error);
  t.true(crashed instanceof Error);
  t.regex((crashed as Error).message, /delivery thread stopped/);
  t.true(warnings.some((warning) => /starting another/.test(warning)));

  const outcomes = await threads.ingress.deliver(mail(identity.email, '222333'), envelope(identity.email));
  t.like(outcomes[0], { kind: 'stored', duplicate: false });
  t.is(localDeliveries(), 0);
  t.is(await messageCount(app, principal, identity.id), 2);
});

test('delivery threads: a thread that outgrows its heap bound stops, what it held fails, and another takes its place', async (t) => {
  const { app, principal, identity, threads, warnings, localDeliveries } = await setup(t, { workerModule: FAULTY, heapLimitMb: 64 });
  t.like((await threads.ingress.deliver(mail(identity.email, '100200'), envelope(identity.email)))[0], { kind: 'stored' });
  const grown = await threads.ingress.deliver(mail(identity.email, '111111', ['X-Test-Fault: grow']), envelope(identity.email)).catch((error: Error) => error);
  t.true(grown instanceof Error);
  t.regex((grown as Error).message, /delivery thread stopped: .*memory/i);
  t.true(warnings.some((warning) => /memory.*starting another/i.test(warning)), warnings.join('\n'));

  t.like((await threads.ingress.deliver(mail(identity.email, '222333'), envelope(identity.email)))[0], { kind: 'stored', duplicate: false });
  t.is(localDeliveries(), 0);
  t.is(await messageCount(app, principal, identity.id), 2);
});

test('delivery threads: a heap bound below 16 MiB is refused', (t) => {
  const base = { setup: { databaseUrl: 'sqlite:x.db', inboxDomain: DOMAIN, maxMessageBytes: 1024, maxMessagesPerIdentity: 1, mailAuth: false, dnsServers: undefined, parseThreads: 0 }, onEvent: () => undefined, onWarning: () => undefined };
  const local: MailIngress = { checkRecipient: () => Promise.reject(new Error('unused')), deliver: () => Promise.reject(new Error('unused')) };
  for (const heapLimitMb of [8, 15.5, Number.NaN]) t.throws(() => startDeliveryThreads({ ...base, local, heapLimitMb }), { instanceOf: RangeError, message: /heapLimitMb/ });
});

test('delivery threads: a delivery held past the watchdog fails, its thread is replaced, and the write lock it held is released', async (t) => {
  // The held delivery never ends; the others must end well within the watchdog, even on a busy machine.
  const { app, principal, identity, threads, warnings } = await setup(t, { workerModule: FAULTY, watchdogMs: 10_000 });
  t.like((await threads.ingress.deliver(mail(identity.email, '100200'), envelope(identity.email)))[0], { kind: 'stored' });
  const stuck = await threads.ingress
    .deliver(mail(identity.email, '999000', ['X-Test-Fault: hang-holding-lock']), envelope(identity.email))
    .catch((error: Error) => error);
  t.true(stuck instanceof Error);
  t.regex((stuck as Error).message, /longer than 10000 ms/);
  t.true(warnings.some((warning) => /past 10000 ms/.test(warning)));

  // A write on the host's connection needs the lock the stopped thread took.
  const other = right(await app.identities.create(principal, { label: 'after the watchdog' }));
  t.truthy(other.id);
  const outcomes = await threads.ingress.deliver(mail(identity.email, '445566'), envelope(identity.email));
  t.like(outcomes[0], { kind: 'stored' });
});

test('delivery threads: while no thread can load, the host thread delivers', async (t) => {
  const { app, principal, identity, threads, warnings, localDeliveries } = await setup(t, { workerModule: BROKEN });
  // Until the thread has died, messages wait for it; once it has, the host's ingress takes them.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !warnings.some((warning) => /delivery thread stopped/.test(warning))) await new Promise((r) => setTimeout(r, 25));
  t.true(warnings.some((warning) => /broken install/.test(warning)));
  const outcomes = await threads.ingress.deliver(mail(identity.email, '654321'), envelope(identity.email));
  t.like(outcomes[0], { kind: 'stored', duplicate: false });
  t.is(localDeliveries(), 1);
  t.is(await messageCount(app, principal, identity.id), 1);
});

test('delivery threads: close lets deliveries in hand finish, then refuses new ones', async (t) => {
  const { app, principal, identity, threads } = await setup(t);
  // Loaded first: under a loaded machine, loading from source alone can outlast a grace period.
  t.like((await threads.ingress.deliver(mail(identity.email, '520000'), envelope(identity.email)))[0], { kind: 'stored' });
  const inFlight = Array.from({ length: 5 }, (_, i) => threads.ingress.deliver(mail(identity.email, String(520_100 + i)), envelope(identity.email)));
  await threads.close(30_000);
  const outcomes = await Promise.all(inFlight);
  t.true(outcomes.every(([outcome]) => outcome?.kind === 'stored'));
  t.is(await messageCount(app, principal, identity.id), 6);
  await t.throwsAsync(threads.ingress.deliver(mail(identity.email, '000111'), envelope(identity.email)), { message: /closed/ });
});
