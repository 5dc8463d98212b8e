import test from 'ava';
import { ArrayIngress, RawSmtp, message, startServer } from './support.js';

const verdicts = { gone: 'expired', dead: 'squashed', full: 'over_quota', nobody: 'unknown' } as const;

const table = [
  ['nobody@inbox.test', 550, '5.1.1 <nobody@inbox.test>: no such mailbox'],
  ['gone@inbox.test', 550, '5.2.1 <gone@inbox.test>: mailbox expired'],
  ['dead@inbox.test', 550, '5.2.1 <dead@inbox.test>: mailbox squashed'],
  ['full@inbox.test', 452, '4.2.2 <full@inbox.test>: mailbox full'],
  ['someone@inbox.test', 250, 'Accepted'],
] as const;

test('rcpt: each verdict of checkRecipient gets its reply code and text at RCPT time', async (t) => {
  const ingress = new ArrayIngress(verdicts);
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  const replies = await client.envelope('sender@example.org', table.map(([address]) => address));
  t.deepEqual(replies.map((reply) => [reply.code, reply.text]), table.map(([, code, text]) => [code, text]));
  client.quit();
});

test('rcpt: a refused recipient never reaches deliver, the accepted ones do in one call', async (t) => {
  const ingress = new ArrayIngress(verdicts);
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  await client.envelope('sender@example.org', ['a@inbox.test', 'nobody@inbox.test', 'b@inbox.test', 'c@inbox.test']);
  t.is((await client.data(message())).code, 250);
  t.is(ingress.delivered.length, 1);
  t.deepEqual(ingress.delivered[0]!.envelope.rcptTo, ['a@inbox.test', 'b@inbox.test', 'c@inbox.test']);
  client.quit();
});

test('rcpt: the envelope carries the sender, the client address, the HELO name and a null reverse path', async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  await client.command('EHLO mx.sender.test');
  await client.command('MAIL FROM:<>');
  await client.command('RCPT TO:<a@inbox.test>');
  t.is((await client.data(message())).code, 250);
  t.like(ingress.delivered[0]!.envelope, { mailFrom: null, transport: 'smtp', remoteAddress: '127.0.0.1', heloName: 'mx.sender.test' });
  client.quit();
});

test('rcpt: an exception from checkRecipient answers 451 4.3.0 and the session goes on', async (t) => {
  const ingress = new ArrayIngress();
  let failures = 1;
  ingress.checkImpl = async (address) => {
    if (failures-- > 0) throw new Error(`store down for ${address}`);
    return { kind: 'accept', identityId: 'idn_1' };
  };
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  const [first] = await client.envelope('sender@example.org', ['a@inbox.test']);
  t.deepEqual([first!.code, first!.text], [451, '4.3.0 temporary failure']);
  t.is((await client.command('RCPT TO:<a@inbox.test>')).code, 250);
  t.is((await client.data(message())).code, 250);
  client.quit();
});

test('rcpt: recipients over maxRecipients get 452 4.5.3 and the message still goes to the first ones', async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress, { maxRecipients: 3 });
  const { client } = await RawSmtp.open(port);
  const addresses = ['a', 'b', 'c', 'd', 'e'].map((local) => `${local}@inbox.test`);
  const replies = await client.envelope('sender@example.org', addresses);
  t.deepEqual(replies.map((reply) => reply.code), [250, 250, 250, 452, 452]);
  t.is(replies[3]!.text, '4.5.3 too many recipients');
  // Naming an accepted recipient again replaces it rather than counting twice.
  t.is((await client.command('RCPT TO:<B@inbox.test>')).code, 250);
  t.is((await client.data(message())).code, 250);
  t.is(ingress.delivered[0]!.envelope.rcptTo.length, 3);
  client.quit();
});

test('rcpt: a refused recipient is not counted against maxRecipients', async (t) => {
  const ingress = new ArrayIngress(verdicts);
  const port = await startServer(t, ingress, { maxRecipients: 2 });
  const { client } = await RawSmtp.open(port);
  const replies = await client.envelope('sender@example.org', ['nobody@inbox.test', 'gone@inbox.test', 'a@inbox.test', 'b@inbox.test']);
  t.deepEqual(replies.map((reply) => reply.code), [550, 550, 250, 250]);
  client.quit();
});

test('rcpt: a verdict this adapter does not know answers 451 rather than leaving the client waiting', async (t) => {
  const ingress = new ArrayIngress();
  ingress.checkImpl = async () => ({ kind: 'on_holiday' }) as any;
  const port = await startServer(t, ingress);
  const { client } = await RawSmtp.open(port);
  const [reply] = await client.envelope('sender@example.org', ['a@inbox.test']);
  t.deepEqual([reply!.code, reply!.text], [451, '4.3.0 temporary failure']);
  client.quit();
});
