import { join } from 'node:path';
import test from 'ava';
import { repoRoot, spawnNode } from './support.js';

// A production host must say how it takes payments (spec/decisions.md "Payment modes"): left at
// its defaults it would sell every plan through the sandbox, whose "Pay" takes no money.

const MAIN = join(repoRoot, 'hosts/api/src/main.ts');
const PRODUCTION = { EPHEMAIL_MODE: 'production', INBOX_DOMAIN: 'pay.test', DATA_KEY: 'e'.repeat(64), DATABASE_URL: 'memory:', PORT: '0', SMTP_ENABLED: 'false', LOG_LEVEL: 'info' };

test('payment modes: a production host without PAYMENTS refuses to start, naming the setting', async (t) => {
  const host = spawnNode(MAIN, [], { ...PRODUCTION, PAYMENTS: '' });
  t.is(await host.exited, 1);
  const { stderr, stdout } = host.output();
  t.regex(stderr, /PAYMENTS: required in production mode: stripe .*or off/);
  t.false(stdout.includes('"listening"'), 'it never listened');
});

test('payment modes: a production host with the sandbox but without PAYMENTS_SANDBOX_IN_PRODUCTION refuses to start', async (t) => {
  const host = spawnNode(MAIN, [], { ...PRODUCTION, PAYMENTS: 'sandbox' });
  t.is(await host.exited, 1);
  t.regex(host.output().stderr, /PAYMENTS=sandbox: takes no money, so in production mode it needs PAYMENTS_SANDBOX_IN_PRODUCTION=true/);
});

test('payment modes: a staging host that opts in runs the sandbox, and says so in its log', async (t) => {
  const host = spawnNode(MAIN, [], { ...PRODUCTION, PAYMENTS: 'sandbox', PAYMENTS_SANDBOX_IN_PRODUCTION: 'true' });
  t.teardown(() => host.child.kill('SIGTERM'));
  await host.waitFor(/"payments":"sandbox"/);
  await host.waitFor(/checkouts take no money/);
  host.child.kill('SIGTERM');
  t.is(await host.exited, 0);
});
