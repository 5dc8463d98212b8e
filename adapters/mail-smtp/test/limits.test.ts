import test from 'ava';
import { ArrayIngress, RawSmtp, message, openAdmitted, startServer, type Reply } from './support.js';

const sendOne = async (client: RawSmtp, body: string): Promise<Reply> => {
  await client.command('MAIL FROM:<sender@example.org>');
  await client.command('RCPT TO:<a@inbox.test>');
  return client.data(body);
};

test('limits: EHLO announces the size cap and MAIL FROM with a larger SIZE= gets 552', async (t) => {
  const port = await startServer(t, new ArrayIngress(), { maxMessageBytes: 10_000 });
  const { client } = await RawSmtp.open(port);
  const ehlo = await client.command('EHLO client.test');
  t.true(ehlo.lines.includes('SIZE 10000'));
  t.is((await client.command('MAIL FROM:<sender@example.org> SIZE=10001')).code, 552);
  t.is((await client.command('MAIL FROM:<sender@example.org> SIZE=10000')).code, 250);
  client.quit();
});

test('limits: a message over the cap gets 552 5.3.4 after it was drained, and the next one on the connection is accepted', async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress, { maxMessageBytes: 10_000 });
  const { client } = await RawSmtp.open(port);
  await client.command('EHLO client.test');
  // The data counted is the body plus the CRLF before the final dot.
  const atCap = 'x'.repeat(98) + '\r\n';
  const exact = atCap.repeat(100).slice(0, 10_000 - 2);
  t.is((await sendOne(client, exact)).code, 250);
  const tooBig = await sendOne(client, `${exact}y`);
  t.deepEqual([tooBig.code, tooBig.text], [552, '5.3.4 message too big']);
  const huge = await sendOne(client, atCap.repeat(20_000));
  t.is(huge.code, 552);
  t.is((await sendOne(client, message())).code, 250);
  t.is(ingress.delivered.length, 2);
  client.quit();
});

test('limits: a data line over maxLineLength gets 552 5.2.3, one at the limit passes, with CRLF or bare LF', async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress, { maxLineLength: 1_000 });
  const { client } = await RawSmtp.open(port);
  await client.command('EHLO client.test');
  t.is((await sendOne(client, `Subject: a\r\n\r\n${'a'.repeat(1_000)}\r\nend`)).code, 250);
  const long = await sendOne(client, `Subject: a\r\n\r\n${'a'.repeat(1_001)}\r\nend`);
  t.deepEqual([long.code, long.text], [552, '5.2.3 line too long (limit 1000 bytes)']);
  t.is((await sendOne(client, `Subject: a\n\n${'a'.repeat(1_001)}\nend`)).code, 552);
  t.is((await sendOne(client, `Subject: ${'h'.repeat(2_000)}\r\n\r\nbody`)).code, 552);
  t.is((await sendOne(client, message())).code, 250);
  t.is(ingress.delivered.length, 2);
  client.quit();
});

test('limits: a command line over maxCommandLength closes the session with 421', async (t) => {
  const port = await startServer(t, new ArrayIngress(), { maxCommandLength: 100 });
  const { client } = await RawSmtp.open(port);
  const reply = await client.command(`HELO ${'h'.repeat(200)}`);
  t.is(reply.code, 421);
  await client.closed;
  t.pass();
});

test('limits: the next MAIL after maxMessagesPerConnection messages gets 421 4.7.0 and the session closes', async (t) => {
  const port = await startServer(t, new ArrayIngress(), { maxMessagesPerConnection: 2 });
  const { client } = await RawSmtp.open(port);
  await client.command('EHLO client.test');
  t.is((await sendOne(client, message())).code, 250);
  t.is((await sendOne(client, message())).code, 250);
  const refused = await client.command('MAIL FROM:<sender@example.org>');
  t.deepEqual([refused.code, refused.text], [421, '4.7.0 too many messages in one session, reconnect']);
  await client.closed;
});

test('limits: a client over maxConnectionsPerIp gets 421 4.7.0 instead of a greeting, and a freed slot admits again', async (t) => {
  const port = await startServer(t, new ArrayIngress(), { maxConnectionsPerIp: 2 });
  const first = await RawSmtp.open(port);
  const second = await RawSmtp.open(port);
  t.deepEqual([first.greeting.code, second.greeting.code], [220, 220]);
  const third = await RawSmtp.open(port);
  t.deepEqual([third.greeting.code, third.greeting.text], [421, '4.7.0 too many connections, try again later']);
  await third.client.closed;
  first.client.quit();
  await first.client.closed;
  const again = await openAdmitted(port);
  t.is((await again.command('NOOP')).code, 250);
  again.quit();
  second.client.quit();
});

test('limits: sessions over maxConnections get 421 4.7.0', async (t) => {
  // The client and network caps set above the server's, so the server's is the one met.
  const port = await startServer(t, new ArrayIngress(), { maxConnections: 1, maxConnectionsPerIp: 10, maxConnectionsPerNetwork: 10 });
  const first = await RawSmtp.open(port);
  const second = await RawSmtp.open(port);
  t.deepEqual([first.greeting.code, second.greeting.code], [220, 421]);
  t.is(second.greeting.text, '4.7.0 too many connections, try again later');
  first.client.quit();
});

// An idle timeout that a client busy only with the next command never meets, even on a busy
// machine: with 150 ms, a test process waiting for a core was cut off between two commands.
const IDLE_MS = 2_000;

test('limits: an idle client is told 421 and disconnected after idleTimeoutMs', async (t) => {
  const port = await startServer(t, new ArrayIngress(), { idleTimeoutMs: IDLE_MS });
  const { client } = await RawSmtp.open(port);
  await client.command('EHLO client.test');
  const started = Date.now();
  const reply = await client.next(30_000);
  t.is(reply.code, 421);
  t.true(Date.now() - started >= IDLE_MS / 2);
  await client.closed;
});

test('limits: a client stalling mid-DATA is told 421 and disconnected after idleTimeoutMs', async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress, { idleTimeoutMs: IDLE_MS });
  const { client } = await RawSmtp.open(port);
  await client.envelope('sender@example.org', ['a@inbox.test']);
  t.is((await client.command('DATA')).code, 354);
  client.write('Subject: half a message\r\n\r\nand then nothing');
  t.is((await client.next(30_000)).code, 421);
  await client.closed;
  t.is(ingress.delivered.length, 0);
});

test('limits: a busy session is closed with 421 4.4.2 once it outlives sessionTimeoutMs', async (t) => {
  const port = await startServer(t, new ArrayIngress(), { sessionTimeoutMs: 300 });
  const { client } = await RawSmtp.open(port);
  let reply = await client.command('NOOP');
  while (reply.code === 250) reply = await client.command('NOOP');
  t.deepEqual([reply.code, reply.text], [421, '4.4.2 session time limit reached, closing connection']);
  await client.closed;
});

test('limits: with a greeting delay, a client talking before the greeting gets 421', async (t) => {
  // Long enough that the client's first line, written right after connecting, comes before it on a busy machine too.
  const port = await startServer(t, new ArrayIngress(), { greetingDelayMs: 3_000 });
  const client = await RawSmtp.connect(port);
  client.write('EHLO early.test\r\n');
  const reply = await client.next();
  t.is(reply.code, 421);
  t.regex(reply.text, /talk too soon/);
  const patient = await RawSmtp.open(port);
  t.is(patient.greeting.code, 220);
  patient.client.quit();
});

test('limits: without a greeting delay, a client that talks at once is greeted and served, not taken for an early talker', async (t) => {
  const port = await startServer(t, new ArrayIngress());
  // The greeting is written in the same turn the connection is accepted in, before anything
  // the client sent can be read; the library's fixed 100 ms would refuse this client.
  const client = await RawSmtp.connect(port);
  client.write('EHLO eager.test\r\n');
  t.is((await client.next()).code, 220);
  t.is((await client.next()).code, 250);
  client.quit();
});
