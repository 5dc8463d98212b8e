import anyTest, { type TestFn } from 'ava';
import type { AuthenticationResults } from '@ephemail/core';
import { createDnsResolver, createMailauthAuthenticator, type MailauthAuthenticatorOptions } from '../src/index.js';
import { freeUdpPort, startDnsmasq, startSilentServer, type Dnsmasq } from './dnsmasq.js';
import { buildMessage, bytes, generateDkimKey, randomLabel, signMessage, type DkimKey } from './messages.js';

/** One name server per file: a domain with SPF, DKIM and DMARC records, and nothing else. */
interface Zone {
  readonly dns: Dnsmasq;
  /** Publishes `v=spf1 ip4:127.0.0.1 -all`, the DKIM key and `v=DMARC1; p=reject`. */
  readonly signer: string;
  readonly key: DkimKey;
}

const test = anyTest as TestFn<Zone>;

test.before(async (t) => {
  const signer = `${randomLabel('signer')}.test`;
  const key = generateDkimKey(randomLabel('sel'));
  const dns = await startDnsmasq({
    localDomains: ['test'],
    txt: [
      [signer, 'v=spf1 ip4:127.0.0.1 -all'],
      [`${key.selector}._domainkey.${signer}`, ...key.record],
      [`_dmarc.${signer}`, 'v=DMARC1; p=reject'],
    ],
  });
  t.context = { dns, signer, key };
});

test.after.always(async (t) => {
  await t.context.dns?.stop();
});

type Overrides = Partial<MailauthAuthenticatorOptions> & { readonly servers?: readonly string[] };

const authenticatorFor = (zone: Zone, overrides: Overrides = {}) =>
  createMailauthAuthenticator({
    resolver: createDnsResolver(overrides.servers ?? [zone.dns.server], { queryTimeoutMs: 1000, tries: 1 }),
    mta: 'mx.inbox.test',
    ...overrides,
  });

const signedBy = (zone: Zone, from: string, body?: string) =>
  signMessage(buildMessage({ from, ...(body === undefined ? {} : { body }) }), zone.signer, zone.key);

test('mail-auth: a signed message from an allowed IP passes SPF, aligned DKIM and DMARC', async (t) => {
  const { signer, key } = t.context;
  const raw = await signedBy(t.context, `Sign-in <login@${signer}>`);
  const results = await authenticatorFor(t.context).authenticate(bytes(raw), {
    mailFrom: `bounce@${signer}`, remoteAddress: '127.0.0.1', heloName: `mail.${signer}`,
  });
  t.deepEqual(results, {
    spf: { result: 'pass', domain: signer },
    dkim: [{ result: 'pass', domain: signer, selector: key.selector, aligned: true }],
    dmarc: { result: 'pass', domain: signer, policy: 'reject' },
    dkimAligned: true,
  } satisfies AuthenticationResults);
});

test('mail-auth: a body changed after signing fails DKIM and, without SPF alignment, DMARC', async (t) => {
  const { signer } = t.context;
  const raw = (await signedBy(t.context, `login@${signer}`, 'Your code is 482913.')).replace('482913', '999999');
  const results = await authenticatorFor(t.context).authenticate(bytes(raw), {
    mailFrom: `bounce@${randomLabel('relay')}.test`, remoteAddress: '127.0.0.1',
  });
  t.is(results.dkim.length, 1);
  t.like(results.dkim[0], { result: 'fail', domain: signer, aligned: true });
  t.false(results.dkimAligned);
  t.deepEqual(results.dmarc, { result: 'fail', domain: signer, policy: 'reject' });
});

test('mail-auth: a signature of another domain than the From domain passes but does not align', async (t) => {
  const { signer } = t.context;
  const other = `${randomLabel('other')}.test`;
  const raw = await signedBy(t.context, `news@${other}`);
  const results = await authenticatorFor(t.context).authenticate(bytes(raw), {
    mailFrom: `bounce@${signer}`, remoteAddress: '127.0.0.1',
  });
  t.deepEqual(results.dkim.map(({ result, domain, aligned }) => ({ result, domain, aligned })), [
    { result: 'pass', domain: signer, aligned: false },
  ]);
  t.false(results.dkimAligned);
  t.deepEqual(results.dmarc, { result: 'none', domain: other, policy: null });
});

test('mail-auth: a From subdomain aligns with a signature of its organizational domain (relaxed)', async (t) => {
  const { signer } = t.context;
  const raw = await signedBy(t.context, `login@news.${signer}`);
  const results = await authenticatorFor(t.context).authenticate(bytes(raw), {
    mailFrom: `bounce@${signer}`, remoteAddress: '127.0.0.1',
  });
  t.true(results.dkim[0]?.aligned);
  t.true(results.dkimAligned);
  t.deepEqual(results.dmarc, { result: 'pass', domain: `news.${signer}`, policy: 'reject' });
});

test('mail-auth: a domain without records gives none everywhere', async (t) => {
  const bare = `${randomLabel('bare')}.test`;
  const raw = buildMessage({ from: `hello@${bare}` });
  const results = await authenticatorFor(t.context).authenticate(bytes(raw), {
    mailFrom: `hello@${bare}`, remoteAddress: '127.0.0.1', heloName: `mx.${bare}`,
  });
  t.deepEqual(results, {
    spf: { result: 'none', domain: bare },
    dkim: [],
    dmarc: { result: 'none', domain: bare, policy: null },
    dkimAligned: false,
  });
});

test('mail-auth: a client IP outside the SPF record fails SPF', async (t) => {
  const { signer } = t.context;
  const raw = await signedBy(t.context, `login@${signer}`);
  const results = await authenticatorFor(t.context).authenticate(bytes(raw), {
    mailFrom: `bounce@${signer}`, remoteAddress: '127.0.0.2',
  });
  t.deepEqual(results.spf, { result: 'fail', domain: signer });
  t.is(results.dmarc.result, 'pass', 'aligned DKIM alone passes DMARC');
});

test('mail-auth: the null reverse-path checks SPF of the HELO name', async (t) => {
  const { signer } = t.context;
  const raw = buildMessage({ from: `MAILER-DAEMON@${signer}` });
  const results = await authenticatorFor(t.context).authenticate(bytes(raw), {
    mailFrom: null, remoteAddress: '127.0.0.1', heloName: signer,
  });
  t.deepEqual(results.spf, { result: 'pass', domain: signer });
});

test('mail-auth: without a client IP (mail fetched over IMAP) SPF is none and DKIM still verifies', async (t) => {
  const { signer } = t.context;
  const raw = await signedBy(t.context, `login@${signer}`);
  const results = await authenticatorFor(t.context).authenticate(bytes(raw), { mailFrom: `bounce@${signer}` });
  t.deepEqual(results.spf, { result: 'none', domain: signer });
  t.true(results.dkimAligned);
  t.is(results.dmarc.result, 'pass');
});

const allTemporary = (t: { is: (a: unknown, b: unknown) => void }, results: AuthenticationResults) => {
  t.is(results.spf.result, 'temperror');
  t.is(results.dkim[0]?.result, 'temperror');
  t.is(results.dmarc.result, 'temperror');
};

test('mail-auth: a name server port with nothing listening gives temperror, not a throw', async (t) => {
  const { signer } = t.context;
  const raw = await signedBy(t.context, `login@${signer}`);
  const closed = `127.0.0.1:${await freeUdpPort()}`;
  const results = await authenticatorFor(t.context, { servers: [closed], timeoutMs: 2000 }).authenticate(bytes(raw), {
    mailFrom: `bounce@${signer}`, remoteAddress: '127.0.0.1',
  });
  allTemporary(t, results);
  t.false(results.dkimAligned);
});

test('mail-auth: a name server that never answers costs one message deadline and gives temperror', async (t) => {
  const { signer } = t.context;
  const raw = await signedBy(t.context, `login@${signer}`);
  const silent = await startSilentServer();
  t.teardown(() => silent.socket.close());
  // Each query alone would wait 60 s; the 300 ms message deadline must cut all three checks short.
  const resolver = createDnsResolver([silent.server], { queryTimeoutMs: 60_000, tries: 1 });
  const started = Date.now();
  const results = await createMailauthAuthenticator({ resolver, timeoutMs: 300 }).authenticate(bytes(raw), {
    mailFrom: `bounce@${signer}`, remoteAddress: '127.0.0.1',
  });
  allTemporary(t, results);
  t.true(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
});
