import test from 'ava';
import nodemailer from 'nodemailer';
import type { DeliveryOutcome } from '@ephemail/core';
import { ArrayIngress, RawSmtp, message, startServer } from './support.js';

const deferred = <T>(): { promise: Promise<T>; resolve: (value: T) => void } => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
};

test('data: 250 is sent only after deliver resolved', async (t) => {
  const ingress = new ArrayIngress();
  const called = deferred<void>();
  const release = deferred<readonly DeliveryOutcome[]>();
  ingress.deliverImpl = (_raw, envelope) => {
    called.resolve();
    return release.promise.then(() => envelope.rcptTo.map((recipient) => ({ recipient, kind: 'stored', messageId: 'msg_held', identityId: 'idn_1', duplicate: false })));
  };
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  await client.envelope('sender@example.org', ['a@inbox.test']);
  const final = client.data(message());
  await called.promise;
  // A full session on a second connection: many event-loop turns and socket reads later,
  // a reply already written to the first connection would have arrived.
  const other = await RawSmtp.open(port);
  t.is((await other.client.command('NOOP')).code, 250);
  other.client.quit();
  await t.throwsAsync(client.next(200), { message: /no reply/ });
  t.is(client.unread, 0);
  release.resolve([]);
  const reply = await final;
  t.deepEqual([reply.code, reply.text], [250, '2.0.0 Ok: queued as msg_held']);
  client.quit();
});

test('data: a failing deliver answers 451 4.3.0 and the retry on the same connection is accepted', async (t) => {
  const ingress = new ArrayIngress();
  const store = ingress.deliverImpl;
  let failures = 1;
  ingress.deliverImpl = (raw, envelope) => (failures-- > 0 ? Promise.reject(new Error('disk full')) : store(raw, envelope));
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  const body = message('retry me');
  await client.envelope('sender@example.org', ['a@inbox.test']);
  const first = await client.data(body);
  t.deepEqual([first.code, first.text], [451, '4.3.0 temporary failure, try again']);
  t.is(ingress.delivered.length, 0);
  t.is((await client.command('MAIL FROM:<sender@example.org>')).code, 250);
  t.is((await client.command('RCPT TO:<a@inbox.test>')).code, 250);
  t.is((await client.data(body)).code, 250);
  t.is(ingress.delivered.length, 1);
  t.is(ingress.delivered[0]!.raw.toString(), `${body}\r\n`);
  client.quit();
});

test('data: a message every recipient found unparseable answers 554 5.6.0', async (t) => {
  const ingress = new ArrayIngress();
  ingress.deliverImpl = async (_raw, envelope) => envelope.rcptTo.map((recipient) => ({ recipient, kind: 'rejected', reason: 'unparseable' }));
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  await client.envelope('sender@example.org', ['a@inbox.test', 'b@inbox.test']);
  const reply = await client.data('garbage');
  t.deepEqual([reply.code, reply.text], [554, '5.6.0 message could not be parsed']);
  client.quit();
});

test('data: a recipient that expired between RCPT and DATA gets the verdict reply when it was the only one', async (t) => {
  const ingress = new ArrayIngress();
  ingress.deliverImpl = async (_raw, envelope) => envelope.rcptTo.map((recipient) => ({ recipient, kind: 'rejected', reason: 'expired' }));
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  await client.envelope('sender@example.org', ['a@inbox.test']);
  t.is((await client.data(message())).text, '5.2.1 <a@inbox.test>: mailbox expired');
  client.quit();
});

test('data: dot-stuffed lines arrive unstuffed and the bytes are passed through untouched', async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  await client.envelope('sender@example.org', ['a@inbox.test']);
  t.is((await client.data('Subject: dots\r\n\r\n..leading dot\r\nbare\nLF and \u00e9 8-bit')).code, 250);
  t.is(ingress.delivered[0]!.raw.toString(), 'Subject: dots\r\n\r\n.leading dot\r\nbare\nLF and \u00e9 8-bit\r\n');
  client.quit();
});

test('data: nodemailer as the sending MTA gets its message delivered to every recipient', async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress);
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  t.teardown(() => transport.close());
  const info = await transport.sendMail({ from: 'shop@example.org', to: ['a@inbox.test', 'b@inbox.test'], subject: 'Your code', text: 'Code: 424242' });
  t.regex(info.response, /^250 2\.0\.0 Ok: queued as msg_/);
  t.deepEqual(ingress.delivered[0]!.envelope.rcptTo, ['a@inbox.test', 'b@inbox.test']);
  t.regex(ingress.delivered[0]!.raw.toString(), /Subject: Your code[\s\S]*Code: 424242/);
});
