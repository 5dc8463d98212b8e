import test from 'ava';
import fc from 'fast-check';
import { backoffDelay, createImapPoller, mailboxKey, messageSource, type MailboxConfig } from '../src/index.js';
import { describeError } from '../src/mailbox-config.js';
import { memoryCursorStore, recordingIngress } from './support.js';

const mailbox: MailboxConfig = { host: 'IMAP.Upstream.example', port: 993, secure: true, user: 'catch-all@upstream.example', password: 'hunter2-secret' };

test('mailbox key: host, port, user and folder make the key; credentials never do', (t) => {
  const key = mailboxKey(mailbox);
  t.is(key, 'imap://catch-all%40upstream.example@imap.upstream.example:993/INBOX');
  t.is(mailboxKey({ ...mailbox, password: undefined, accessToken: 'token' }), key, 'rotating credentials keeps the cursor');
  t.not(mailboxKey({ ...mailbox, folder: 'Archive' }), key);
  t.not(mailboxKey({ ...mailbox, port: 143 }), key);
  t.not(mailboxKey({ ...mailbox, user: 'other@upstream.example' }), key);
  t.is(messageSource(mailbox, 42), `${key}#42`);
  t.false(key.includes('hunter2'));
});

test('mailbox key: folder and user names cannot collide through separators', (t) => {
  t.not(mailboxKey({ ...mailbox, user: 'a', folder: 'b/c' }), mailboxKey({ ...mailbox, user: 'a/b', folder: 'c' }));
});

test('create poller: a configuration without exactly one credential, or with a bad option, is refused at once', (t) => {
  const { ingress } = recordingIngress();
  const cursors = memoryCursorStore();
  t.throws(() => createImapPoller(ingress, cursors, { ...mailbox, password: undefined }), { instanceOf: TypeError });
  t.throws(() => createImapPoller(ingress, cursors, { ...mailbox, accessToken: 'token' }), { instanceOf: TypeError });
  t.throws(() => createImapPoller(ingress, cursors, { ...mailbox, port: 0 }), { instanceOf: RangeError });
  t.throws(() => createImapPoller(ingress, cursors, mailbox, { batchSize: 0 }), { instanceOf: RangeError });
  t.throws(() => createImapPoller(ingress, cursors, mailbox, { pollIntervalMs: Number.NaN }), { instanceOf: RangeError });
  t.throws(() => createImapPoller(ingress, cursors, mailbox, { backoff: { baseMs: 500, maxMs: 100 } }), { instanceOf: RangeError });
  t.is(createImapPoller(ingress, cursors, mailbox).mailboxKey, mailboxKey(mailbox));
});

test('describe error: the password and the token are removed from whatever the server echoed', (t) => {
  const error = Object.assign(new Error('LOGIN failed for hunter2-secret'), { response: 'NO hunter2-secret rejected', code: 'AUTH', authenticationFailed: true });
  const described = describeError(error, mailbox);
  t.deepEqual(described, { error: 'LOGIN failed for [redacted]', code: 'AUTH', authenticationFailed: true, response: 'NO [redacted] rejected' });
  t.deepEqual(describeError('token tok-123 bad', { ...mailbox, password: undefined, accessToken: 'tok-123' }), { error: 'token [redacted] bad' });
});

test('backoff: the ceiling doubles from baseMs up to maxMs and the jittered delay lies in its upper half', (t) => {
  const backoff = { baseMs: 100, maxMs: 5_000 };
  t.deepEqual(
    [0, 1, 2, 3, 6, 100].map((attempt) => backoffDelay(attempt, backoff, () => 1)),
    [100, 200, 400, 800, 5_000, 5_000],
  );
  fc.assert(
    fc.property(fc.nat(10_000), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
      const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(attempt, 40));
      const delay = backoffDelay(attempt, backoff, () => random);
      return delay >= Math.floor(ceiling / 2) && delay <= ceiling && Number.isFinite(delay);
    }),
  );
});
