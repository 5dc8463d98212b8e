import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PACKAGES, planSystemPackages, type SystemPackage } from './system-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

const packages: Record<string, SystemPackage> = {
  'dovecot-imapd': { probe: 'dovecot', why: 'IMAP', suites: ['adapters/mail-imap/test/a.test.ts'] },
  'kcat': { probe: 'kcat', why: 'Kafka', suites: ['test/e2e/kafka.test.ts', 'examples/k/test/b.test.ts'] },
  'gcc': { probe: 'gcc', why: 'Kafka', suites: ['test/e2e/kafka.test.ts'] },
};

test('system packages: with none missing there is nothing to install or skip', (t) => {
  t.deepEqual(planSystemPackages({ missing: [], noInstall: true, root: false, apt: false }, packages), { kind: 'ready' });
});

test('system packages: as root with apt-get the missing ones are installed, waiting for a lock another apt holds', (t) => {
  const plan = planSystemPackages({ missing: ['kcat', 'gcc'], noInstall: false, root: true, apt: true }, packages);
  t.is(plan.kind, 'install');
  if (plan.kind !== 'install') return;
  t.deepEqual(plan.missing, ['kcat', 'gcc']);
  t.regex(plan.command, /apt-get -o DPkg::Lock::Timeout=\d+ update && apt-get -o DPkg::Lock::Timeout=\d+ install -y --no-install-recommends kcat gcc$/);
});

test('system packages: EPHEMAIL_TEST_NO_INSTALL=1 installs nothing, even as root, and skips each suite that needs a missing package, saying which', (t) => {
  const plan = planSystemPackages({ missing: ['kcat', 'gcc'], noInstall: true, root: true, apt: true }, packages);
  t.is(plan.kind, 'skip');
  if (plan.kind !== 'skip') return;
  t.deepEqual([...plan.skipped.keys()].sort(), ['examples/k/test/b.test.ts', 'test/e2e/kafka.test.ts']);
  t.regex(plan.skipped.get('test/e2e/kafka.test.ts')!, /^needs kcat, gcc \(not installed, and EPHEMAIL_TEST_NO_INSTALL=1\)$/);
  t.regex(plan.skipped.get('examples/k/test/b.test.ts')!, /^needs kcat /);
});

for (const situation of [{ root: false, apt: true }, { root: true, apt: false }]) {
  test(`system packages: ${situation.root ? 'without apt-get' : 'not as root'}, a missing package fails the run with the command to run, and its suites are skipped`, (t) => {
    const plan = planSystemPackages({ missing: ['dovecot-imapd'], noInstall: false, ...situation }, packages);
    t.is(plan.kind, 'refuse');
    if (plan.kind !== 'refuse') return;
    t.regex(plan.command, /install -y --no-install-recommends dovecot-imapd$/);
    t.deepEqual([...plan.skipped.keys()], ['adapters/mail-imap/test/a.test.ts']);
    t.true(plan.skipped.get('adapters/mail-imap/test/a.test.ts')!.includes(plan.command));
  });
}

test('system packages: every suite the list names exists, so a renamed test file cannot escape the skip', (t) => {
  const named = Object.values(PACKAGES).flatMap((p) => p.suites);
  t.true(named.length > 0);
  t.deepEqual(named.filter((suite) => !existsSync(join(root, suite))), []);
});

test('system packages: the harness ends with `N passed, N failed` alone on its last line', async (t) => {
  // No step selected: the run only checks the packages (never installing here) and closes.
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'test/harness/run-all.mjs')], {
    cwd: root,
    env: { ...process.env, TEST_ONLY: 'no-such-step', EPHEMAIL_TEST_NO_INSTALL: '1' },
  });
  t.is(stdout.trimEnd().split('\n').at(-1), '0 passed, 0 failed');
});
