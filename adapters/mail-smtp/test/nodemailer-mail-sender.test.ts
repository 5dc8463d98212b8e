import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { createNodemailerMailSender } from '../src/index.js';

interface Received {
  readonly from: string | false;
  readonly to: string[];
  readonly user: unknown;
  readonly raw: string;
}

/** A relay we start ourselves on loopback; `refuse` makes it answer every RCPT with 550. */
const startRelay = async (t: ExecutionContext, options: { refuse?: boolean } = {}): Promise<{ port: number; received: Received[] }> => {
  const received: Received[] = [];
  const handlers: SMTPServerOptions = {
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    disableReverseLookup: true,
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === 'relay-user' && auth.password === 'p@ss' ? callback(null, { user: auth.username }) : callback(new Error('bad credentials')),
    onRcptTo: (_address, _session, callback) =>
      options.refuse ? callback(Object.assign(new Error('5.7.1 relaying denied'), { responseCode: 550 })) : callback(),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope;
        received.push({ from: mailFrom && mailFrom.address, to: rcptTo.map((r) => r.address), user: session.user, raw: Buffer.concat(chunks).toString() });
        callback(null, 'queued as RELAY1');
      });
    },
  };
  const server = new SMTPServer(handlers);
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as AddressInfo).port, received };
};

test('nodemailer-mail-sender: From, To, Subject, both bodies and custom headers reach the relay, authenticated from the URL', async (t) => {
  const relay = await startRelay(t);
  const sender = createNodemailerMailSender({ url: `smtp://relay-user:p%40ss@127.0.0.1:${relay.port}`, from: 'ephemail <no-reply@ephemail.test>' });
  t.teardown(() => sender.close());
  const { messageId } = await sender.send({
    to: 'user@example.org',
    subject: 'Sign in to ephemail',
    text: 'Open https://ephemail.test/magic/abc to sign in.',
    html: '<p><a href="https://ephemail.test/magic/abc">Sign in</a></p>',
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Ephemail-Kind': 'magic-link' },
  });
  t.regex(messageId, /^<.+@.+>$/);
  const [mail] = relay.received;
  t.like(mail, { from: 'no-reply@ephemail.test', to: ['user@example.org'], user: 'relay-user' });
  t.regex(mail!.raw, /^From: ephemail <no-reply@ephemail\.test>$/m);
  t.regex(mail!.raw, /^To: user@example\.org$/m);
  t.regex(mail!.raw, /^Subject: Sign in to ephemail$/m);
  t.regex(mail!.raw, /^Auto-Submitted: auto-generated$/m);
  t.regex(mail!.raw, /^X-Ephemail-Kind: magic-link$/m);
  t.true(mail!.raw.includes(`Message-ID: ${messageId}`));
  // Short ASCII bodies go as 7bit, so both parts can be read verbatim.
  t.regex(mail!.raw, /Content-Type: text\/plain[^]*Open https:\/\/ephemail\.test\/magic\/abc to sign in\./);
  t.regex(mail!.raw, /Content-Type: text\/html[^]*<p><a href="https:\/\/ephemail\.test\/magic\/abc">Sign in<\/a><\/p>/);
});

test('nodemailer-mail-sender: a relay that refuses with 550 makes send reject', async (t) => {
  const relay = await startRelay(t, { refuse: true });
  const sender = createNodemailerMailSender({ url: `smtp://relay-user:p%40ss@127.0.0.1:${relay.port}`, from: 'no-reply@ephemail.test' });
  t.teardown(() => sender.close());
  const err = await t.throwsAsync(sender.send({ to: 'user@example.org', subject: 's', text: 't' }));
  t.regex(String((err as { response?: string }).response), /^550 /);
  t.is(relay.received.length, 0);
});

test('nodemailer-mail-sender: wrong relay credentials make send reject', async (t) => {
  const relay = await startRelay(t);
  const sender = createNodemailerMailSender({ url: `smtp://relay-user:wrong@127.0.0.1:${relay.port}`, from: 'no-reply@ephemail.test' });
  t.teardown(() => sender.close());
  await t.throwsAsync(sender.send({ to: 'user@example.org', subject: 's', text: 't' }));
  t.is(relay.received.length, 0);
});

test('nodemailer-mail-sender: a relay URL that is not smtp:// or smtps:// is refused when built', (t) => {
  t.throws(() => createNodemailerMailSender({ url: 'http://relay.example:25', from: 'a@b.test' }), { message: /smtp:\/\/ or smtps:\/\// });
});
