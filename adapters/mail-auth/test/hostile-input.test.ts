import anyTest, { type TestFn } from 'ava';
import fc from 'fast-check';
import type { AuthVerdict, AuthenticationResults } from '@ephemail/core';
import { createDnsResolver, createMailauthAuthenticator } from '../src/index.js';
import { startDnsmasq, type Dnsmasq } from './dnsmasq.js';
import { bytes } from './messages.js';

const test = anyTest as TestFn<{ readonly dns: Dnsmasq }>;

test.before(async (t) => {
  t.context = { dns: await startDnsmasq({ localDomains: ['test'] }) };
});

test.after.always(async (t) => {
  await t.context.dns?.stop();
});

const authenticatorFor = (dns: Dnsmasq) =>
  createMailauthAuthenticator({ resolver: createDnsResolver([dns.server]), mta: 'mx.inbox.test', timeoutMs: 2000 });

const VERDICTS: readonly AuthVerdict[] = ['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy'];

const isWellFormed = (results: AuthenticationResults): boolean =>
  VERDICTS.includes(results.spf.result) &&
  VERDICTS.includes(results.dmarc.result) &&
  results.dkim.every((row) => VERDICTS.includes(row.result)) &&
  results.dkimAligned === results.dkim.some((row) => row.result === 'pass' && row.aligned);

test('mail-auth: garbage bytes and a garbage envelope give results, not a throw', async (t) => {
  const authenticator = authenticatorFor(t.context.dns);
  const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256);
  const results = await authenticator.authenticate(garbage, { mailFrom: '@@<>', remoteAddress: 'not-an-ip', heloName: '\u0000' });
  t.deepEqual(results, {
    spf: { result: 'none', domain: null },
    dkim: [],
    dmarc: { result: 'permerror', domain: null, policy: null },
    dkimAligned: false,
  });
});

test('mail-auth: an empty message is unverifiable, not an error', async (t) => {
  const results = await authenticatorFor(t.context.dns).authenticate(new Uint8Array(0), { mailFrom: null });
  t.is(results.dmarc.result, 'permerror');
  t.deepEqual(results.dkim, []);
});

test('mail-auth: several From addresses neither align nor get a DMARC domain', async (t) => {
  const raw = bytes('From: a@one.test, b@two.test\r\nSubject: hi\r\n\r\nbody\r\n');
  const results = await authenticatorFor(t.context.dns).authenticate(raw, { mailFrom: 'a@one.test', remoteAddress: '127.0.0.1' });
  t.deepEqual(results.dmarc, { result: 'permerror', domain: null, policy: null });
});

test('mail-auth: a malformed DKIM-Signature yields no passing signature', async (t) => {
  const raw = bytes('DKIM-Signature: v=1; a=rsa-sha256; d=one.test; s=\u0000; b=@@; bh=!!\r\nFrom: a@one.test\r\n\r\nbody\r\n');
  const results = await authenticatorFor(t.context.dns).authenticate(raw, { mailFrom: null, remoteAddress: '::1' });
  t.false(results.dkimAligned);
  t.true(results.dkim.every((row) => row.result !== 'pass'));
});

test('mail-auth: any bytes with any envelope resolve to well-formed results', async (t) => {
  const authenticator = authenticatorFor(t.context.dns);
  const header = fc.constantFrom('From: ', 'DKIM-Signature: v=1; a=rsa-sha256; d=x.test; s=s; ', 'Subject: ', '\r\n', '');
  const message = fc.tuple(header, fc.uint8Array({ maxLength: 2048 })).map(([prefix, tail]) => {
    const head = bytes(prefix);
    const all = new Uint8Array(head.length + tail.length);
    all.set(head);
    all.set(tail, head.length);
    return all;
  });
  const context = fc.record({
    mailFrom: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
    remoteAddress: fc.option(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 20 })), { nil: undefined }),
    heloName: fc.option(fc.oneof(fc.domain(), fc.string({ maxLength: 20 })), { nil: undefined }),
  });
  await fc.assert(
    fc.asyncProperty(message, context, async (raw, envelope) => isWellFormed(await authenticator.authenticate(raw, envelope))),
    { numRuns: 60 },
  );
  t.pass();
});
