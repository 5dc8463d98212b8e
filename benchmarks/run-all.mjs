#!/usr/bin/env node
// The root `npm run bench` (after the build): runs every benchmarks/<name>/run.ts in name order,
// one after another so they never compete for the CPU, with their output passed through.
// BENCH_ONLY=api,extraction picks some by name. Exits non-zero when any benchmark failed.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const only = (process.env.BENCH_ONLY ?? '').split(',').map((name) => name.trim()).filter(Boolean);

const available = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(here, entry.name, 'run.ts')))
  .map((entry) => entry.name)
  .sort();

const unknown = only.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`BENCH_ONLY names no benchmark: ${unknown.join(', ')} (available: ${available.join(', ') || 'none'})`);
  process.exit(2);
}
const selected = only.length > 0 ? available.filter((name) => only.includes(name)) : available;

/** Runs one benchmark with the source condition, so it needs no build of its own; answers the exit code. */
const runOne = (name) =>
  new Promise((resolve) => {
    const args = ['--import=tsx', '--conditions=@ephemail/source', join('benchmarks', name, 'run.ts')];
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('error', (error) => {
      console.error(`${name}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

// Ctrl-C reaches the running benchmark too (same process group): let it stop its servers and
// exit, then start no further benchmark.
let interrupted = false;
process.on('SIGINT', () => {
  interrupted = true;
});

const failed = [];
let ran = 0;
for (const name of selected) {
  ran += 1;
  console.log(`\n=== benchmark ${name}`);
  const code = await runOne(name);
  if (code !== 0) failed.push(`${name} (exit ${code})`);
  if (interrupted) break;
}

const skipped = interrupted ? `; interrupted, ${selected.length - ran} not run` : '';
console.log(`\n${ran - failed.length} of ${selected.length} benchmarks passed${failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''}${skipped}`);
process.exitCode = failed.length > 0 ? 1 : 0;
