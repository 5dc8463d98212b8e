// System packages the suites need (real peers: see CONTRIBUTING). `npm test` installs the missing
// ones as root with apt-get, saying so first; EPHEMAIL_TEST_NO_INSTALL=1 skips the suites that need
// them instead, and a run that can install nothing fails with the command to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KAFKA_SUITES = [
  'adapters/events-kafka/test/broker-outage.test.ts',
  'adapters/events-kafka/test/event-consumer.test.ts',
  'adapters/events-kafka/test/relay-to-kafka.test.ts',
  'examples/kafka-consumer/test/example.test.ts',
  'test/e2e/kafka-host.test.ts',
];

/**
 * Debian package → how to tell it is installed (a command it provides, or an absolute path of a
 * file it installs), what it is for, and the suites that need it: test files, or a whole workspace
 * folder for one that Playwright runs.
 */
export const PACKAGES = {
  'dnsmasq-base': {
    probe: 'dnsmasq',
    why: 'a real name server for the SPF, DKIM, DMARC and custom-domain lookups',
    suites: [
      'adapters/mail-auth/test/dns-resolver.test.ts',
      'adapters/mail-auth/test/hostile-input.test.ts',
      'adapters/mail-auth/test/mailauth-authenticator.test.ts',
      'adapters/http-outbound/test/dns.test.ts',
      'test/e2e/domains.test.ts',
    ],
  },
  'dovecot-imapd': {
    probe: 'dovecot',
    why: 'a real IMAP server for the IMAP poller',
    suites: ['adapters/mail-imap/test/imap-poller.test.ts', 'adapters/mail-imap/test/imap-poller-session.test.ts'],
  },
  'gcc': { probe: 'gcc', why: "compiles the Kafka suites' mock cluster", suites: KAFKA_SUITES },
  'librdkafka-dev': { probe: '/usr/include/librdkafka/rdkafka_mock.h', why: "librdkafka's mock Kafka cluster", suites: KAFKA_SUITES },
  'kcat': { probe: 'kcat', why: 'an independent Kafka client that reads the topics back', suites: KAFKA_SUITES },
  'openssl': {
    probe: 'openssl',
    why: 'test certificates for STARTTLS, HTTPS and invoice signing',
    suites: ['adapters/mail-smtp/test/starttls.test.ts', 'adapters/http-outbound/test/transport.test.ts', 'adapters/http-outbound/test/dns.test.ts', 'test/e2e/billing.test.ts'],
  },
  'poppler-utils': { probe: 'pdftotext', why: 'a real PDF reader for the invoice PDFs the host renders', suites: ['test/e2e/billing.test.ts'] },
  'swaks': { probe: 'swaks', why: "a second, independent SMTP client for the MX's protocol tests", suites: ['adapters/mail-smtp/test/starttls.test.ts'] },
  'chromium': {
    probe: 'chromium',
    why: 'a real browser for the web app and the Playwright example (driven by playwright-core, never downloaded)',
    suites: ['test/e2e/web-app.test.ts', 'examples/playwright-signup'],
  },
};

/** The environment variable that skips, rather than installs, what is missing. */
export const NO_INSTALL = 'EPHEMAIL_TEST_NO_INSTALL';

/**
 * The shell command that installs `packages`. apt waits up to ten minutes for a lock another apt
 * holds (two runs on one machine, or an unattended upgrade) instead of failing at once.
 */
export const installCommand = (packages) => {
  const apt = 'apt-get -o DPkg::Lock::Timeout=600';
  return `${apt} update && ${apt} install -y --no-install-recommends ${packages.join(' ')}`;
};

/** Suite → why it is skipped, for the suites that need any of the `missing` packages. */
export const suitesNeeding = (missing, why, packages = PACKAGES) => {
  const needs = new Map();
  for (const name of missing) {
    for (const suite of packages[name]?.suites ?? []) needs.set(suite, [...(needs.get(suite) ?? []), name]);
  }
  return new Map([...needs].map(([suite, names]) => [suite, `needs ${names.join(', ')} (${why})`]));
};

/**
 * What to do about the `missing` packages: nothing (`ready`); `skip` the suites that need them
 * (the caller asked for no install); `install` them (root with apt-get); or `refuse` (a failed
 * step, with the command to run, and those suites skipped).
 */
export const planSystemPackages = ({ missing, noInstall, root, apt }, packages = PACKAGES) => {
  if (missing.length === 0) return { kind: 'ready' };
  const command = installCommand(missing);
  if (noInstall) return { kind: 'skip', missing, skipped: suitesNeeding(missing, `not installed, and ${NO_INSTALL}=1`, packages) };
  if (!root || !apt) {
    const why = `not installed; installing needs root and apt-get: ${command}`;
    return { kind: 'refuse', missing, command, skipped: suitesNeeding(missing, why, packages) };
  }
  return { kind: 'install', missing, command };
};

const has = (probe) =>
  probe.startsWith('/') ? existsSync(probe) : spawnSync('sh', ['-c', `command -v ${probe}`], { stdio: 'ignore' }).status === 0;

/** The packages of `packages` that are not installed here. */
export const missingPackages = (packages = PACKAGES) => Object.entries(packages).filter(([, p]) => !has(p.probe)).map(([name]) => name);

/** Prints what is about to be installed, as root, and why. */
const announce = (missing, command) => {
  console.log(`npm test installs ${missing.length} missing system package(s) with apt-get, as root (set ${NO_INSTALL}=1 to skip the suites that need them instead):`);
  for (const name of missing) console.log(`  ${name}: ${PACKAGES[name].why}`);
  console.log(`Running: ${command}`);
};

/**
 * Makes the system packages ready, or says which suites cannot run. Answers `failure` (a message)
 * when the run must fail, and `skipped` (suite → reason) for the suites the harness must not run.
 */
export const prepareSystemPackages = (env = process.env) => {
  const missing = missingPackages();
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const plan = planSystemPackages({ missing, noInstall: env[NO_INSTALL] === '1', root, apt: has('apt-get') });
  if (plan.kind === 'ready') return { skipped: new Map() };
  if (plan.kind === 'skip') {
    console.log(`${NO_INSTALL}=1: not installing ${plan.missing.join(', ')}; the suites that need them are skipped.`);
    return { skipped: plan.skipped };
  }
  if (plan.kind === 'refuse') {
    return { failure: `Missing system packages: ${plan.missing.join(', ')}. Install them as root with:\n  ${plan.command}\nor run with ${NO_INSTALL}=1 to skip the suites that need them.`, skipped: plan.skipped };
  }
  announce(plan.missing, plan.command);
  // One install at a time from this project's runs on the machine (flock), beside apt's own lock.
  const lock = join(tmpdir(), 'ephemail-test-apt.lock');
  const locked = has('flock') ? ['flock', lock, 'sh', '-c', plan.command] : ['sh', '-c', plan.command];
  const result = spawnSync(locked[0], locked.slice(1), { stdio: 'inherit', env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
  const still = missingPackages().filter((name) => plan.missing.includes(name));
  if (still.length === 0) return { skipped: new Map() };
  const why = `the install failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`;
  return { failure: `Installing ${still.join(', ')} failed: ${why}. Run as root:\n  ${installCommand(still)}`, skipped: suitesNeeding(still, why) };
};
