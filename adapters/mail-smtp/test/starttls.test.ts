import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import nodemailer from 'nodemailer';
import { ArrayIngress, RawSmtp, message, startServer } from './support.js';

const has = (command: string, args: string[]): boolean => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** A throw-away self-signed certificate for `localhost`, made with openssl. */
const selfSigned = (): { key: string; cert: string } | undefined => {
  if (!has('openssl', ['version'])) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'mx-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const tls = selfSigned();
const withCert = tls ? test : test.skip;
if (!tls) test('starttls: skipped, openssl is not installed to make a test certificate', (t) => t.pass());

withCert('starttls: with a certificate, STARTTLS is offered and a verified TLS client delivers through it', async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress, { tls });
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { ca: tls!.cert, servername: 'localhost' } });
  t.teardown(() => transport.close());
  const info = await transport.sendMail({ from: 'shop@example.org', to: 'a@inbox.test', subject: 'over TLS', text: 'secret code 777111' });
  t.regex(info.response, /^250 /);
  t.regex(ingress.delivered[0]!.raw.toString(), /secret code 777111/);
});

withCert('starttls: a client that does not trust the certificate cannot deliver', async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress, { tls });
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { servername: 'localhost' } });
  t.teardown(() => transport.close());
  await t.throwsAsync(transport.sendMail({ from: 'shop@example.org', to: 'a@inbox.test', subject: 'x', text: 'y' }));
  t.is(ingress.delivered.length, 0);
});

test('starttls: without a certificate neither STARTTLS nor AUTH is offered, and AUTH is refused', async (t) => {
  const port = await startServer(t, new ArrayIngress());
  const { client } = await RawSmtp.open(port);
  const ehlo = await client.command('EHLO client.test');
  t.false(ehlo.lines.some((line) => /STARTTLS|AUTH/.test(line)));
  t.is((await client.command('STARTTLS')).code, 500);
  t.is((await client.command('AUTH PLAIN AGFAYg==')).code, 500);
  t.is((await client.command('MAIL FROM:<sender@example.org>')).code, 250);
  client.quit();
});

const swaks = has('swaks', ['--version']);

// Without swaks the test is reported as skipped, with the reason, never as a pass.
(swaks ? test : test.skip)(`swaks: a message sent with swaks, with and without pipelining, is delivered${swaks ? '' : ' (skipped: swaks is not installed)'}`, async (t) => {
  const ingress = new ArrayIngress();
  const port = await startServer(t, ingress);
  // Asynchronously: the server runs in this process and must keep answering meanwhile.
  for (const extra of [[], ['--pipeline']]) {
    await promisify(execFile)('swaks', ['--server', '127.0.0.1', '--port', String(port), '--to', 'a@inbox.test', '--from', 'shop@example.org',
      '--data', message('from swaks'), '--silent', '2', ...extra]);
  }
  t.is(ingress.delivered.length, 2);
});
