import test from 'ava';
import type { Tally } from '@ephemail/core';
import { createTally, METRICS } from '@ephemail/core';
import type { SmtpLogger } from '../src/index.js';
import { ArrayIngress, RawSmtp, message, startServer } from './support.js';

const total = (meter: Tally, metric: Parameters<Tally['series']>[0], label = ''): number => meter.series(metric).get(label)?.[0] ?? 0;
const deliveries = (meter: Tally): number => meter.series('ephemail_smtp_delivery_duration_seconds').get('')![METRICS.ephemail_smtp_delivery_duration_seconds.buckets.length + 2]!;

test('metrics: an accepted message is counted with its bytes and its time to stored; the session shows while open', async (t) => {
  const meter = createTally();
  const port = await startServer(t, new ArrayIngress(), { meter });
  const { client } = await RawSmtp.open(port);
  t.is(await meter.readGauge('ephemail_smtp_sessions_open'), 1);
  await client.envelope('sender@example.org', ['a@inbox.test']);
  const body = message();
  t.is((await client.data(body)).code, 250);
  t.is(total(meter, 'ephemail_smtp_messages_total', 'accepted'), 1);
  t.is(total(meter, 'ephemail_smtp_received_bytes_total'), Buffer.byteLength(body) + 2, 'the data with its final line ending');
  t.is(deliveries(meter), 1);
  client.quit();
  await client.closed;
  while ((await meter.readGauge('ephemail_smtp_sessions_open')) !== 0) await new Promise((resolve) => setImmediate(resolve));
  t.pass('the session is gone from the gauge once it closed');
});

test('metrics: a resend the ingress recognised is counted and logged as a duplicate, nothing stored', async (t) => {
  const meter = createTally();
  const lines: string[] = [];
  const write = (fields: object, text?: string) => void lines.push(`${text} ${JSON.stringify(fields)}`);
  const logger: SmtpLogger = { info: write, warn: write, error: write };
  const ingress = new ArrayIngress();
  ingress.deliverImpl = async (_raw, envelope) => envelope.rcptTo.map((recipient) => ({ recipient, kind: 'stored', messageId: 'msg_1', identityId: 'idn_1', duplicate: true }));
  const port = await startServer(t, ingress, { meter, logger });
  const { client } = await RawSmtp.open(port);
  await client.envelope('sender@example.org', ['a@inbox.test']);
  t.is((await client.data(message())).code, 250, 'a duplicate is acknowledged like the first copy');
  client.quit();
  t.is(total(meter, 'ephemail_smtp_messages_total', 'duplicate'), 1);
  t.is(total(meter, 'ephemail_smtp_messages_total', 'accepted'), 0);
  t.is(deliveries(meter), 1);
  t.regex(lines.join('\n'), /smtp: duplicate message answered, nothing stored .*"stored":0,"duplicates":1/);
});

test('metrics: refusals are counted by reason: recipients, size, recipients per message, messages per session, failures', async (t) => {
  const meter = createTally();
  const ingress = new ArrayIngress({ nobody: 'unknown', stuffed: 'over_quota', gone: 'expired' });
  let failNext = false;
  const store = ingress.deliverImpl;
  ingress.deliverImpl = (raw, envelope) => (failNext ? Promise.reject(new Error('store offline')) : store(raw, envelope));
  const port = await startServer(t, ingress, { meter, maxMessageBytes: 2048, maxRecipients: 2, maxMessagesPerConnection: 2 });
  const { client } = await RawSmtp.open(port);
  const rcpts = await client.envelope('sender@example.org', ['nobody@inbox.test', 'stuffed@inbox.test', 'gone@inbox.test', 'a@inbox.test', 'b@inbox.test', 'c@inbox.test']);
  t.deepEqual(rcpts.map((reply) => reply.code), [550, 452, 550, 250, 250, 452]);
  t.is((await client.data(`${message()}\r\n${'x'.repeat(3000)}`)).code, 552);
  await client.command('MAIL FROM:<sender@example.org>');
  await client.command('RCPT TO:<a@inbox.test>');
  failNext = true;
  t.is((await client.data(message())).code, 451);
  t.is((await client.command('MAIL FROM:<sender@example.org>')).code, 421);
  const counted = Object.fromEntries([...meter.series('ephemail_smtp_messages_total')].filter(([, v]) => v[0]! > 0).map(([label, v]) => [label, v[0]]));
  t.deepEqual(counted, { unknown_recipient: 1, full: 1, expired: 1, too_many_recipients: 1, too_large: 1, failed: 1, rate: 1 });
  t.true(total(meter, 'ephemail_smtp_received_bytes_total') > 3000, 'refused data is received data too');
  t.is(deliveries(meter), 0, 'nothing was stored');
});
