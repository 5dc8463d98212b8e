#!/usr/bin/env node
// MailDev is one of the SMTP benchmark's comparison servers, and nothing else uses it. It is not
// a dependency of the benchmarks workspace: its web UI pulls in packages that ask for Node >= 22,
// so every plain `npm install` on Node 20 warned EBADENGINE for the sake of one benchmark. It is
// installed here instead, on the first `npm run bench` that will start it, into
// benchmarks/smtp/node_modules: Node resolves it from there for benchmarks/smtp/targets.ts, git
// ignores it like any node_modules, and npm leaves it alone (benchmarks/smtp is not a package).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The version the results in benchmarks/README.md were measured with. */
const MAILDEV = 'maildev@3.0.0';

const here = dirname(fileURLToPath(import.meta.url));
const smtpDir = join(here, 'smtp');

const listed = (variable, name) => {
  const names = (process.env[variable] ?? '').split(',').map((part) => part.trim()).filter(Boolean);
  return names.length === 0 || names.includes(name);
};

/** Whether the run will start MailDev: the smtp benchmark is selected and MailDev is one of its targets. */
const needed = () => listed('BENCH_ONLY', 'smtp') && listed('BENCH_SMTP_TARGETS', 'maildev');

/** Whether `maildev` already resolves from the benchmark's folder (however it got there). */
const installed = () =>
  (createRequire(join(smtpDir, 'targets.ts')).resolve.paths('maildev') ?? []).some((dir) => existsSync(join(dir, 'maildev', 'package.json')));

if (needed() && !installed()) {
  const target = relative(process.cwd(), join(smtpDir, 'node_modules')) || '.';
  console.log(`benchmarks: installing ${MAILDEV} for the SMTP benchmark into ${target} (first run only; it is kept out of \`npm install\` because its dependencies ask for Node >= 22, so npm may warn EBADENGINE now) ...`);
  const args = ['install', '--prefix', smtpDir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', MAILDEV];
  const result = spawnSync('npm', args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0 || !installed()) {
    console.error(`benchmarks: could not install ${MAILDEV}; run the SMTP benchmark without it with BENCH_SMTP_TARGETS=host,parse,discard`);
    process.exit(1);
  }
}
