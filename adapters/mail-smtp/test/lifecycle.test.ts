import test from 'ava';
import { createSmtpInbound, type SmtpLogger } from '../src/index.js';
import { ArrayIngress, RawSmtp, message } from './support.js';

const capture = (): { logger: SmtpLogger; lines: string[] } => {
  const lines: string[] = [];
  const write = (level: string) => (fields: object, text?: string) =>
    lines.push(`${level} ${text ?? ''} ${JSON.stringify(fields, (_k, v: unknown) => (v instanceof Error ? v.message : v))}`);
  return { logger: { info: write('info'), warn: write('warn'), error: write('error') }, lines };
};

test('lifecycle: close answers 421 to the next command of an open session and resolves once it is gone', async (t) => {
  const inbound = createSmtpInbound(new ArrayIngress(), { closeTimeoutMs: 5_000 });
  const { port } = await inbound.listen(0);
  const { client } = await RawSmtp.open(port);
  await client.command('EHLO client.test');
  const closing = inbound.close();
  t.is((await client.command('NOOP')).code, 421);
  await client.closed;
  await closing;
  await t.throwsAsync(RawSmtp.connect(port));
});

test('lifecycle: listen reports a port already taken as an error', async (t) => {
  const first = createSmtpInbound(new ArrayIngress());
  const { port } = await first.listen(0);
  t.teardown(() => first.close());
  await t.throwsAsync(createSmtpInbound(new ArrayIngress()).listen(port), { code: 'EADDRINUSE' });
});

test('lifecycle: the log names addresses, sizes and codes but never message content', async (t) => {
  const { logger, lines } = capture();
  const ingress = new ArrayIngress({ nobody: 'unknown' });
  const store = ingress.deliverImpl;
  let failures = 1;
  ingress.deliverImpl = (raw, envelope) => (failures-- > 0 ? Promise.reject(new Error('store offline')) : store(raw, envelope));
  const inbound = createSmtpInbound(ingress, { logger, closeTimeoutMs: 1_000 });
  const { port } = await inbound.listen(0);
  t.teardown(() => inbound.close());
  const { client } = await RawSmtp.open(port);
  await client.envelope('sender@example.org', ['nobody@inbox.test', 'a@inbox.test']);
  const body = message('Subject-Secret-7f3a', 'Body-Secret-91c2 code 555123');
  t.is((await client.data(body)).code, 451);
  await client.command('MAIL FROM:<sender@example.org>');
  await client.command('RCPT TO:<a@inbox.test>');
  t.is((await client.data(body)).code, 250);
  client.quit();
  const log = lines.join('\n');
  t.regex(log, /recipient refused.*nobody@inbox\.test.*"verdict":"unknown"/);
  t.regex(log, /error smtp: delivery failed, answered 451.*"err":"store offline"/);
  t.regex(log, /message answered.*"code":250/);
  t.false(/Secret|555123/.test(log));
});
