import { createTally } from '@ephemail/core';
import { createImapPoller } from '../src/index.js';
import { dovecotSuite, mailboxOf, memoryCursorStore, message, recordingIngress, recordingLogger, seeder } from './support.js';

const { it } = await dovecotSuite();

it('imap poller: each new message is delivered with the recipients of X-Original-To, Delivered-To, To and Cc', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  const first = message({
    subject: 'one',
    returnPath: '<bounce@sender.example>',
    xOriginalTo: 'orig@in.example',
    deliveredTo: 'dlv@in.example',
    to: '"Ann, A." <ann@in.example>, bob@in.example (Bob)',
    cc: 'Team: cat@in.example, ANN@in.example;',
  });
  const second = message({ subject: 'two', to: 'ann@in.example', returnPath: '<>' });
  await seed.append('INBOX', first);
  await seed.append('INBOX', second);
  const { ingress, deliveries } = recordingIngress();
  const cursors = memoryCursorStore();
  const poller = createImapPoller(ingress, cursors, mailboxOf(server, user));

  const report = await poller.pollOnce();

  t.like(report, { delivered: 2, skipped: 0, lastUid: 2, rescanned: false, halted: undefined });
  const source = `imap://${user.user}@127.0.0.1:${server.port}/INBOX`;
  t.deepEqual(
    deliveries.map((delivery) => delivery.envelope),
    [
      {
        transport: 'imap',
        mailFrom: 'bounce@sender.example',
        rcptTo: ['orig@in.example', 'dlv@in.example', 'ann@in.example', 'bob@in.example', 'cat@in.example'],
        source: `${source}#1`,
      },
      { transport: 'imap', mailFrom: null, rcptTo: ['ann@in.example'], source: `${source}#2` },
    ],
  );
  t.deepEqual(
    deliveries.map((delivery) => delivery.text),
    [first, second],
    'the raw bytes reach the pipeline unchanged',
  );
  t.deepEqual(await cursors.load(poller.mailboxKey), { uidValidity: report.uidValidity, lastUid: 2 });
});

it('imap poller: a new poller resumes after the saved cursor and never re-delivers older UIDs', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  const cursors = memoryCursorStore();
  await seed.append('INBOX', message({ subject: 'old-1', to: 'a@in.example' }));
  await seed.append('INBOX', message({ subject: 'old-2', to: 'a@in.example' }));
  const before = recordingIngress();
  t.like(await createImapPoller(before.ingress, cursors, mailboxOf(server, user)).pollOnce(), { delivered: 2, lastUid: 2 });

  await seed.append('INBOX', message({ subject: 'new-3', to: 'a@in.example' }));
  const after = recordingIngress();
  const restarted = createImapPoller(after.ingress, cursors, mailboxOf(server, user));
  t.like(await restarted.pollOnce(), { delivered: 1, lastUid: 3 });
  t.like(await restarted.pollOnce(), { delivered: 0, lastUid: 3 });

  t.deepEqual(
    after.deliveries.map((delivery) => delivery.envelope.source?.split('#')[1]),
    ['3'],
  );
  t.true(after.deliveries[0]?.text.includes('Subject: new-3'));
});

it('imap poller: a changed UIDVALIDITY re-reads the folder from UID 1 and the deduplicating ingress stores nothing twice', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  const [a, b, c] = ['a', 'b', 'c'].map((subject) => message({ subject, to: `${subject}@in.example` }));
  await seed.mailboxCreate('Feeds');
  await seed.append('Feeds', a!);
  await seed.append('Feeds', b!);
  const { ingress, deliveries, storedCount } = recordingIngress();
  const cursors = memoryCursorStore();
  const poller = createImapPoller(ingress, cursors, mailboxOf(server, user, { folder: 'Feeds' }));
  const first = await poller.pollOnce();
  t.like(first, { delivered: 2, lastUid: 2, rescanned: false });

  // Recreating the folder gives it a new UIDVALIDITY; the same two messages come back with new UIDs.
  await seed.mailboxDelete('Feeds');
  await seed.mailboxCreate('Feeds');
  for (const raw of [a!, b!, c!]) await seed.append('Feeds', raw);
  const second = await poller.pollOnce();

  t.like(second, { delivered: 3, lastUid: 3, rescanned: true, halted: undefined });
  t.not(second.uidValidity, first.uidValidity);
  t.deepEqual(await cursors.load(poller.mailboxKey), { uidValidity: second.uidValidity, lastUid: 3 });
  t.deepEqual(
    deliveries.map((delivery) => delivery.duplicate),
    [false, false, true, true, false],
  );
  t.is(storedCount(), 3);
});

it('imap poller: a failing delivery holds the cursor before that message and a later poll retries it', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  for (const subject of ['before', 'poison', 'after']) await seed.append('INBOX', message({ subject, to: 'x@in.example' }));
  let failures = 1;
  const { ingress, deliveries } = recordingIngress((text) => text.includes('Subject: poison') && failures-- > 0);
  const cursors = memoryCursorStore();
  const poller = createImapPoller(ingress, cursors, mailboxOf(server, user));

  const failed = await poller.pollOnce();
  t.like(failed, { delivered: 1, lastUid: 1, halted: { reason: 'deliver_failed', uid: 2, error: 'store unavailable' } });
  t.is((await cursors.load(poller.mailboxKey))?.lastUid, 1);
  t.is(deliveries.length, 1, 'nothing after the failed message was delivered');

  const retried = await poller.pollOnce();
  t.like(retried, { delivered: 2, lastUid: 3, halted: undefined });
  t.deepEqual(
    deliveries.map((delivery) => /Subject: (\w+)/.exec(delivery.text)?.[1]),
    ['before', 'poison', 'after'],
  );
});

it('imap poller: a message with no routing address is skipped and the cursor moves past it', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  await seed.append('INBOX', message({ subject: 'nobody' }));
  await seed.append('INBOX', message({ subject: 'somebody', to: 'x@in.example' }));
  const { ingress, deliveries } = recordingIngress();
  const report = await createImapPoller(ingress, memoryCursorStore(), mailboxOf(server, user)).pollOnce();
  t.like(report, { delivered: 1, skipped: 1, lastUid: 2 });
  t.is(deliveries.length, 1);
});

it('imap poller: a copy the pipeline refuses is counted and logged with its reason, and the cursor moves past it', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  await seed.append('INBOX', message({ subject: 'split', to: 'full@in.example, ok@in.example' }));
  await seed.append('INBOX', message({ subject: 'next', to: 'ok@in.example' }));
  const { ingress, deliveries } = recordingIngress(undefined, (recipient) => (recipient === 'full@in.example' ? 'over_quota' : undefined));
  const { logger, warnings } = recordingLogger();
  const cursors = memoryCursorStore();
  const poller = createImapPoller(ingress, cursors, mailboxOf(server, user), { logger });
  const report = await poller.pollOnce();
  t.like(report, { delivered: 2, skipped: 0, refused: 1, lastUid: 2, halted: undefined });
  t.is(deliveries.length, 2);
  t.deepEqual(
    warnings().map((entry) => entry.fields),
    [{ mailbox: poller.mailboxKey, uid: 1, recipient: 'full@in.example', reason: 'over_quota' }],
  );
  t.is((await cursors.load(poller.mailboxKey))?.lastUid, 2);
});

it('imap poller: pollers racing on one mailbox store each message once and leave the cursor at the last UID', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  const { ingress, storedCount } = recordingIngress();
  const cursors = memoryCursorStore();
  const pollers = [1, 2, 3, 4].map(() => createImapPoller(ingress, cursors, mailboxOf(server, user), { batchSize: 3 }));
  // A first pass on the empty folder stores the cursor, so the race is over deliveries, not the reset.
  t.like(await pollers[0]!.pollOnce(), { delivered: 0, lastUid: 0 });
  for (let i = 1; i <= 8; i += 1) await seed.append('INBOX', message({ subject: `m${i}`, to: `r${i}@in.example` }));

  const reports = await Promise.all(pollers.map((poller) => poller.pollOnce()));

  for (const report of reports) t.true(report.halted === undefined || report.halted.reason === 'cursor_moved');
  t.is(storedCount(), 8);
  t.is((await cursors.load(pollers[0]!.mailboxKey))?.lastUid, 8);
  t.true(reports.reduce((sum, report) => sum + report.delivered, 0) >= 8);
});

it('imap poller: passes, fetched messages and failed deliveries are counted under the configured label, never the login', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  await seed.append('INBOX', message({ subject: 'counted-1', to: 'a@in.example' }));
  await seed.append('INBOX', message({ subject: 'counted-2', to: 'a@in.example' }));
  const meter = createTally();
  const { ingress } = recordingIngress((text) => text.includes('counted-2'));
  const poller = createImapPoller(ingress, memoryCursorStore(), mailboxOf(server, user), { meter, metricsLabel: 'support-inbox' });
  t.like(await poller.pollOnce(), { delivered: 1, halted: { reason: 'deliver_failed' } });
  const counted = (metric: 'ephemail_imap_polls_total' | 'ephemail_imap_messages_fetched_total' | 'ephemail_imap_errors_total') =>
    Object.fromEntries([...meter.series(metric)].map(([label, values]) => [label, values[0]]));
  t.deepEqual(counted('ephemail_imap_polls_total'), { 'support-inbox': 1 });
  t.deepEqual(counted('ephemail_imap_messages_fetched_total'), { 'support-inbox': 2 });
  t.deepEqual(counted('ephemail_imap_errors_total'), { 'support-inbox': 1 });
});
