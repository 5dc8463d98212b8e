import test from 'ava';
import { backoffDelay, createImapPoller } from '../src/index.js';
import { dovecotSuite, mailboxOf, memoryCursorStore, message, recordingIngress, recordingLogger, seeder } from './support.js';

const { it, server: dovecot } = await dovecotSuite();

it('imap session: with IDLE a new message is delivered promptly, long before any poll timer', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  const { ingress, waitFor } = recordingIngress();
  const { logger, entries } = recordingLogger();
  // Timers of ten minutes: only an IDLE notification can explain a prompt delivery.
  const poller = createImapPoller(ingress, memoryCursorStore(), mailboxOf(server, user), { idle: true, pollIntervalMs: 600_000, idleRefreshMs: 600_000, logger });
  t.teardown(() => poller.stop());
  await seed.append('INBOX', message({ subject: 'warm-up', to: 'x@in.example' }));
  poller.start();
  await waitFor(1);

  const latencies: number[] = [];
  for (let round = 2; round <= 4; round += 1) {
    const appended = Date.now();
    await seed.append('INBOX', message({ subject: `round-${round}`, to: 'x@in.example' }));
    await waitFor(round);
    latencies.push(Date.now() - appended);
  }
  t.log(`append to delivery with IDLE: ${latencies.join(' ms, ')} ms`);
  t.true(Math.max(...latencies) < 10_000);
  t.like(entries.find((entry) => entry.message === 'imap session started')?.fields, { idle: true });
});

it('imap session: without IDLE the poller finds new mail on its poll interval', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  const { ingress, waitFor, deliveries } = recordingIngress();
  const { logger, entries } = recordingLogger();
  const poller = createImapPoller(ingress, memoryCursorStore(), mailboxOf(server, user), { idle: false, pollIntervalMs: 50, logger });
  t.teardown(() => poller.stop());
  poller.start();
  await seed.append('INBOX', message({ subject: 'polled-1', to: 'x@in.example' }));
  await waitFor(1);
  await seed.append('INBOX', message({ subject: 'polled-2', to: 'x@in.example' }));
  await waitFor(2);
  t.is(deliveries.length, 2);
  t.like(entries.find((entry) => entry.message === 'imap session started')?.fields, { idle: false });
});

it('imap session: a wrong password is retried with growing pauses, never crashes, and recovers once the password is right', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  await seed.append('INBOX', message({ subject: 'waiting', to: 'x@in.example' }));
  const configured = `configured-${user.password}-v2`;
  const { ingress, waitFor } = recordingIngress();
  const { logger, entries, warnings, waitForWarnings } = recordingLogger();
  const backoff = { baseMs: 40, maxMs: 320 };
  const poller = createImapPoller(ingress, memoryCursorStore(), mailboxOf(server, user, { password: configured }), { backoff, logger });
  t.teardown(() => poller.stop());
  poller.start();
  await waitForWarnings(4);

  const failures = warnings().filter((entry) => entry.message.startsWith('imap session failed'));
  t.deepEqual(
    failures.slice(0, 4).map((entry) => entry.fields.attempt),
    [1, 2, 3, 4],
  );
  failures.slice(0, 4).forEach((entry, attempt) => {
    t.is(entry.fields.authenticationFailed, true);
    const retry = entry.fields.retryInMs as number;
    t.true(retry >= backoffDelay(attempt, backoff, () => 0) && retry <= backoffDelay(attempt, backoff, () => 1), `attempt ${attempt}: ${retry} ms`);
  });

  // The server learns the configured password; the next retry gets in and delivers.
  await server.setPassword(user.user, configured);
  await waitFor(1);
  const logged = JSON.stringify(entries);
  t.false(logged.includes(configured), 'the password never reaches the log');
  t.false(logged.includes(user.password));
});

it('imap session: a connection the server drops is re-established and mail keeps flowing', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  const { ingress, waitFor, deliveries } = recordingIngress();
  const { logger, entries } = recordingLogger();
  const poller = createImapPoller(ingress, memoryCursorStore(), mailboxOf(server, user), { idle: true, backoff: { baseMs: 20, maxMs: 40 }, logger });
  t.teardown(() => poller.stop());
  await seed.append('INBOX', message({ subject: 'before-drop', to: 'x@in.example' }));
  poller.start();
  await waitFor(1);

  // The kick drops the seeding connection too, so a fresh one appends the next message.
  server.kick(user.user);
  const reseed = await seeder(t, server, user);
  await reseed.append('INBOX', message({ subject: 'after-drop', to: 'x@in.example' }));
  await waitFor(2);
  t.is(deliveries.length, 2);
  t.true(entries.filter((entry) => entry.message === 'imap session started').length >= 2, 'a second session was opened');
  t.true(entries.some((entry) => entry.message.startsWith('imap session failed')));
});

it('imap session: the loop pauses after a failed delivery, then delivers it and the rest in order', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  for (const subject of ['first', 'flaky', 'last']) await seed.append('INBOX', message({ subject, to: 'x@in.example' }));
  let failures = 2;
  const { ingress, deliveries, waitFor } = recordingIngress((text) => text.includes('Subject: flaky') && failures-- > 0);
  const { logger, warnings } = recordingLogger();
  const cursors = memoryCursorStore();
  const poller = createImapPoller(ingress, cursors, mailboxOf(server, user), { backoff: { baseMs: 20, maxMs: 40 }, logger });
  t.teardown(() => poller.stop());
  poller.start();
  await waitFor(3);
  t.deepEqual(
    deliveries.map((delivery) => /Subject: (\w+)/.exec(delivery.text)?.[1]),
    ['first', 'flaky', 'last'],
  );
  t.true(warnings().some((entry) => entry.message.startsWith('imap message delivery failed') && entry.fields.uid === 2));
  await poller.stop();
  t.is((await cursors.load(poller.mailboxKey))?.lastUid, 3);
});

it('imap session: stop() ends IDLE, logs out cleanly, and nothing is delivered after it resolved', async (t, server) => {
  const user = server.user();
  const seed = await seeder(t, server, user);
  await seed.append('INBOX', message({ subject: 'before-stop', to: 'x@in.example' }));
  const { ingress, deliveries, waitFor } = recordingIngress();
  const poller = createImapPoller(ingress, memoryCursorStore(), mailboxOf(server, user), { idle: true });
  poller.start();
  await waitFor(1);
  await poller.stop();
  await poller.stop();

  await seed.append('INBOX', message({ subject: 'after-stop', to: 'x@in.example' }));
  t.is(deliveries.length, 1);
  const log = await server.waitForLog(new RegExp(`imap\\(${user.user}\\).*Disconnected`));
  const sessions = log.split('\n').filter((line) => line.includes(`imap(${user.user})`) && line.includes('Disconnected'));
  t.is(sessions.length, 1);
  t.regex(sessions[0] ?? '', /Disconnected: Logged out/);
  // The stopped poller can still be asked for a single pass.
  t.like(await poller.pollOnce(), { delivered: 1, lastUid: 2 });
});

it('imap session: stop() during reconnect pauses returns promptly', async (t, server) => {
  const user = server.user();
  const { ingress } = recordingIngress();
  const { logger, waitForWarnings } = recordingLogger();
  const poller = createImapPoller(ingress, memoryCursorStore(), mailboxOf(server, user, { password: 'not-it' }), { backoff: { baseMs: 60_000, maxMs: 60_000 }, logger });
  poller.start();
  await waitForWarnings(1);
  const stopping = Date.now();
  await poller.stop();
  t.true(Date.now() - stopping < 30_000, 'a minute-long pause does not hold stop()');
});

if (dovecot?.xoauth2 !== false) {
  it('imap session: an OAuth2 access token logs in with XOAUTH2', async (t, server) => {
    const user = server.user();
    const seed = await seeder(t, server, user);
    await seed.append('INBOX', message({ subject: 'oauth', to: 'x@in.example' }));
    const { ingress, deliveries } = recordingIngress();
    // This Dovecot checks the token against the passwd-file, as it would a password.
    const mailbox = { ...mailboxOf(server, user), password: undefined, accessToken: user.password };
    t.like(await createImapPoller(ingress, memoryCursorStore(), mailbox).pollOnce(), { delivered: 1 });
    t.is(deliveries.length, 1);
    await t.notThrowsAsync(server.waitForLog(new RegExp(`Login: user=<${user.user}>, method=XOAUTH2`)));
  });
} else {
  test.skip('imap session: an OAuth2 access token logs in with XOAUTH2 (skipped: this Dovecot version offers XOAUTH2 only with an OAuth2 passdb)', () => {});
}
