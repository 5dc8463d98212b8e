import { availableParallelism } from 'node:os';
import test from 'ava';
import { ConfigError, loadConfig, SCOPES_DEFAULT_FOR_TEST } from './config-support.js';

test('config: defaults give the embedded development service', (t) => {
  const config = loadConfig({});
  t.is(config.EPHEMAIL_MODE, 'development');
  t.is(config.PORT, 3000);
  t.is(config.HOST, '127.0.0.1');
  t.is(config.DATABASE_URL, 'sqlite:./data/ephemail.db');
  t.is(config.INBOX_DOMAIN, 'inbox.localhost');
  t.deepEqual(config.BOOTSTRAP_SCOPES, SCOPES_DEFAULT_FOR_TEST);
  t.is(config.TRUST_PROXY, false);
});

test('config: values are parsed and checked', (t) => {
  const config = loadConfig({ PORT: '8080', DATABASE_URL: 'memory:', BOOTSTRAP_SCOPES: 'identities:read, secrets:read', TRUST_PROXY: '2', INBOX_DOMAIN: 'Mail.Example.COM' });
  t.is(config.PORT, 8080);
  t.deepEqual(config.BOOTSTRAP_SCOPES, ['identities:read', 'secrets:read']);
  t.is(config.TRUST_PROXY, 2);
  t.is(config.INBOX_DOMAIN, 'mail.example.com');
});

test('config: every bad variable is named in one error', (t) => {
  const error = t.throws(() => loadConfig({ PORT: '70000', DATABASE_URL: 'postgres://x', BOOTSTRAP_SCOPES: 'root', BOOTSTRAP_API_KEY: 'aid_short' }), { instanceOf: ConfigError });
  for (const name of ['PORT', 'DATABASE_URL', 'BOOTSTRAP_SCOPES', 'BOOTSTRAP_API_KEY']) t.regex(error!.message, new RegExp(name));
});

test('config: production mode requires INBOX_DOMAIN', (t) => {
  t.throws(() => loadConfig({ EPHEMAIL_MODE: 'production' }), { message: /INBOX_DOMAIN: required in production mode/ });
  t.is(loadConfig({ EPHEMAIL_MODE: 'production', INBOX_DOMAIN: 'in.example.com', DATA_KEY: 'a'.repeat(64), PAYMENTS: 'off' }).INBOX_DOMAIN, 'in.example.com');
});

const PRODUCTION = { EPHEMAIL_MODE: 'production', INBOX_DOMAIN: 'in.example.com', DATA_KEY: 'a'.repeat(64) };

test('config: a production host without a payment setting does not start, and the error names PAYMENTS', (t) => {
  const error = t.throws(() => loadConfig(PRODUCTION), { instanceOf: ConfigError });
  t.regex(error!.message, /PAYMENTS: required in production mode: stripe .* or off/);
});

test('config: the sandbox takes no money, so production takes it only with PAYMENTS_SANDBOX_IN_PRODUCTION=true', (t) => {
  const error = t.throws(() => loadConfig({ ...PRODUCTION, PAYMENTS: 'sandbox' }), { instanceOf: ConfigError });
  t.regex(error!.message, /PAYMENTS=sandbox: .*PAYMENTS_SANDBOX_IN_PRODUCTION=true/);
  t.throws(() => loadConfig({ ...PRODUCTION, PAYMENTS: 'sandbox', PAYMENTS_SANDBOX_IN_PRODUCTION: 'false' }), { message: /PAYMENTS_SANDBOX_IN_PRODUCTION=true/ });
  t.is(loadConfig({ ...PRODUCTION, PAYMENTS: 'sandbox', PAYMENTS_SANDBOX_IN_PRODUCTION: 'true' }).PAYMENTS, 'sandbox');
  t.is(loadConfig({ ...PRODUCTION, PAYMENTS: 'off' }).PAYMENTS, 'off');
  t.throws(() => loadConfig({ ...PRODUCTION, PAYMENTS: 'stripe' }), { message: /STRIPE_SECRET_KEY: required with PAYMENTS=stripe/ });
  t.throws(() => loadConfig({ PAYMENTS: 'free' }), { message: /PAYMENTS/ });
  t.is(loadConfig({}).PAYMENTS, 'sandbox', 'development keeps the sandbox by default');
});

test('config: production mode requires a data key, and IMAP mailboxes are validated', (t) => {
  t.throws(() => loadConfig({ EPHEMAIL_MODE: 'production', INBOX_DOMAIN: 'in.example.com' }), { message: /DATA_KEY or DATA_KEY_FILE: required/ });
  t.throws(() => loadConfig({ IMAP_MAILBOXES: '[{"host":"imap.example.com","port":993,"secure":true,"user":"u"}]' }), { message: /exactly one of password and accessToken/ });
  t.throws(() => loadConfig({ IMAP_MAILBOXES: 'not json' }), { message: /IMAP_MAILBOXES: must be a JSON array/ });
  const mailboxes = loadConfig({ IMAP_MAILBOXES: '[{"host":"imap.example.com","port":993,"secure":true,"user":"u","password":"p"}]' }).IMAP_MAILBOXES;
  t.is(mailboxes[0]?.host, 'imap.example.com');
  const named = loadConfig({ IMAP_MAILBOXES: '[{"host":"imap.example.com","port":993,"secure":true,"user":"u@example.com","password":"p","name":"support-inbox"}]' });
  t.is(named.IMAP_MAILBOXES[0]?.name, 'support-inbox', 'the label of its metrics');
  t.throws(() => loadConfig({ IMAP_MAILBOXES: '[{"host":"h","port":993,"secure":true,"user":"u","password":"p","name":"u@example.com"}]' }), { message: /name: must be 1-64 letters/ });
});

test('config: webhook delays and the data key are checked at start-up', (t) => {
  t.throws(() => loadConfig({ WEBHOOK_BASE_DELAY_MS: '5000', WEBHOOK_MAX_DELAY_MS: '1000' }), { message: /WEBHOOK_MAX_DELAY_MS: must be at least WEBHOOK_BASE_DELAY_MS/ });
  t.throws(() => loadConfig({ DATA_KEY: 'short' }), { message: /DATA_KEY: must be 32 bytes/ });
  t.is(loadConfig({ DATA_KEY: Buffer.alloc(32, 7).toString('base64') }).DATA_KEY?.length, 44);
});

test('config: DELIVERY_THREADS defaults to one over a store threads share when a core is spare, and refuses a memory store', (t) => {
  const spare = availableParallelism() > 1 ? 1 : 0;
  t.is(loadConfig({}).DELIVERY_THREADS, spare);
  t.is(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/ephemail/mail.db' }).DELIVERY_THREADS, spare);
  t.is(loadConfig({ DATABASE_URL: 'mongodb://127.0.0.1:27017/ephemail' }).DELIVERY_THREADS, spare);
  t.is(loadConfig({ DATABASE_URL: 'memory:' }).DELIVERY_THREADS, 0);
  t.is(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).DELIVERY_THREADS, 0);
  t.is(loadConfig({ DELIVERY_THREADS: '0' }).DELIVERY_THREADS, 0);
  t.is(loadConfig({ DELIVERY_THREADS: '2' }).DELIVERY_THREADS, 2);
  t.throws(() => loadConfig({ DATABASE_URL: 'memory:', DELIVERY_THREADS: '1' }), { message: /DELIVERY_THREADS: needs a store that threads share/ });
  for (const bad of ['-1', '1.5', 'many', '17']) t.throws(() => loadConfig({ DELIVERY_THREADS: bad }), { message: /DELIVERY_THREADS/ });
});

test('config: DELIVERY_THREAD_HEAP_MB defaults to room for eight of the largest messages, never under 256 MiB', (t) => {
  t.is(loadConfig({}).DELIVERY_THREAD_HEAP_MB, 256);
  t.is(loadConfig({ SMTP_MAX_MESSAGE_BYTES: String(100 * 1024 * 1024) }).DELIVERY_THREAD_HEAP_MB, 800);
  t.is(loadConfig({ DELIVERY_THREAD_HEAP_MB: '512' }).DELIVERY_THREAD_HEAP_MB, 512);
  for (const bad of ['63', '1.5', 'lots', '65537']) t.throws(() => loadConfig({ DELIVERY_THREAD_HEAP_MB: bad }), { message: /DELIVERY_THREAD_HEAP_MB/ });
});

test('config: PARSE_THREADS defaults to one per spare core (at most two) without delivery threads, to one with them, and takes 0 to parse in the delivering thread', (t) => {
  const spare = availableParallelism() - 1;
  t.is(loadConfig({ DELIVERY_THREADS: '0' }).PARSE_THREADS, Math.max(0, Math.min(2, spare)));
  t.is(loadConfig({ DATABASE_URL: 'memory:' }).PARSE_THREADS, Math.max(0, Math.min(2, spare)));
  t.is(loadConfig({ DELIVERY_THREADS: '1' }).PARSE_THREADS, Math.max(0, Math.min(1, spare)));
  t.is(loadConfig({ PARSE_THREADS: '0' }).PARSE_THREADS, 0);
  t.is(loadConfig({ PARSE_THREADS: '3' }).PARSE_THREADS, 3);
  t.is(loadConfig({ DELIVERY_THREADS: '1', PARSE_THREADS: '2' }).PARSE_THREADS, 2);
  for (const bad of ['-1', '1.5', 'many', '65']) t.throws(() => loadConfig({ PARSE_THREADS: bad }), { message: /PARSE_THREADS/ });
});

test('config: SMTP_MAX_CONNECTIONS_PER_NETWORK is left to the SMTP adapter (half of SMTP_MAX_CONNECTIONS) unless set to a positive integer', (t) => {
  t.is(loadConfig({}).SMTP_MAX_CONNECTIONS_PER_NETWORK, undefined);
  t.is(loadConfig({ SMTP_MAX_CONNECTIONS_PER_NETWORK: '120' }).SMTP_MAX_CONNECTIONS_PER_NETWORK, 120);
  for (const bad of ['0', '-1', '1.5', 'half']) {
    t.throws(() => loadConfig({ SMTP_MAX_CONNECTIONS_PER_NETWORK: bad }), { message: /SMTP_MAX_CONNECTIONS_PER_NETWORK/ });
  }
});
