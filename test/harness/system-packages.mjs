// System packages the suites need (real peers: see CONTRIBUTING). Installed when missing and
// running as root with apt-get; otherwise the exact command to run is printed and the run fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian package → a command it provides (or an absolute path of a file it installs), to tell whether it is installed. */
export const REQUIRED = {
  'dnsmasq-base': 'dnsmasq',
  'dovecot-imapd': 'dovecot',
  'gcc': 'gcc',
  'kcat': 'kcat',
  'openssl': 'openssl',
  // A real PDF reader for the invoice PDFs the host renders.
  'poppler-utils': 'pdftotext',
  // A second, independent SMTP client for the MX's protocol tests (pipelining, STARTTLS).
  'swaks': 'swaks',
  'librdkafka-dev': '/usr/include/librdkafka/rdkafka_mock.h',
  // A real browser for the web app's end-to-end test (driven by playwright-core, never downloaded).
  'chromium': 'chromium',
};

const has = (probe) =>
  probe.startsWith('/') ? existsSync(probe) : spawnSync('sh', ['-c', `command -v ${probe}`], { stdio: 'ignore' }).status === 0;

export const ensureSystemPackages = async (required = REQUIRED) => {
  const missing = Object.entries(required).filter(([, command]) => !has(command)).map(([pkg]) => pkg);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !has('apt-get')) {
    throw new Error(`Missing system packages: ${missing.join(', ')}. Install them with:\n  sudo sh -c '${command}'`);
  }
  console.log(`Installing system packages: ${missing.join(', ')}`);
  execFileSync('sh', ['-c', command], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
};
