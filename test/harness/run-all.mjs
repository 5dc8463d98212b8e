#!/usr/bin/env node
// The root `npm test`: type-check, lint, then every workspace's ava suite and Playwright specs, and a closing line
// `N passed, N failed` with the real totals. Exits non-zero when anything failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareSystemPackages } from './system-packages.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const only = (process.env.TEST_ONLY ?? '').split(',').filter(Boolean);

/**
 * Runs a command, streaming its output, and answers its exit code and captured stdout. A command
 * that could not start, or that a signal ended (a native crash, the out-of-memory killer), says so
 * and answers a failing code instead of ending the harness.
 */
const run = (command, args, cwd, { capture = false, env = process.env } = {}) =>
  new Promise((resolveRun) => {
    // Project binaries straight from node_modules/.bin: no npm wrapper in between.
    const bin = join(root, 'node_modules/.bin', command);
    const child = spawn(existsSync(bin) ? bin : command, args, { cwd, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], env });
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', (error) => {
      console.log(`\n${command} could not run: ${error.message}`);
      resolveRun({ code: 1, out });
    });
    child.on('close', (code, signal) => {
      if (signal !== null) console.log(`\n${command} was ended by ${signal}`);
      resolveRun({ code: code ?? 1, out });
    });
  });

/** Workspace folders, in the order of the root package.json's globs. */
const workspaces = () => {
  const globs = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
  return globs.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`)
      .sort();
  });
};

/** The `*.test.ts` files of a workspace, relative to it, outside node_modules and dist. */
const testFiles = (dir) => {
  const walk = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (['node_modules', 'dist'].includes(e.name) ? [] : walk(join(d, e.name))) : e.name.endsWith('.test.ts') ? [join(d, e.name)] : [],
    );
  return existsSync(join(root, dir)) ? walk(join(root, dir)).map((file) => relative(join(root, dir), file)).sort() : [];
};

/** Totals from ava's TAP summary (`# pass N`, `# fail N`, `# skip N`), plus a failure when it crashed. */
const tally = (out, code) => {
  const count = (name) => [...out.matchAll(new RegExp(`^# ${name} (\\d+)$`, 'gm'))].reduce((sum, m) => sum + Number(m[1]), 0);
  const passed = count('pass');
  const failed = count('fail');
  // A suite that crashed before its summary still counts as a failure.
  return { passed, failed: failed === 0 && code !== 0 ? 1 : failed, skipped: count('skip') };
};

const totals = { passed: 0, failed: 0, skipped: 0 };
const rows = [];
const record = (name, result) => {
  totals.passed += result.passed;
  totals.failed += result.failed;
  totals.skipped += result.skipped;
  rows.push([name, result]);
};
const check = async (name, command, args) => {
  if (only.length > 0 && !only.includes(name)) return;
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const { code } = await run(command, args, root);
  record(name, code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 });
};

/** Reports suites that are not run, each with its reason, and counts each as one skipped. */
const skipSuites = (suites) => {
  for (const [suite, why] of suites) console.log(`SKIP ${suite}: ${why}`);
  return { passed: 0, failed: 0, skipped: suites.length };
};
const add = (a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped });

/** One workspace's ava suite, less the files whose system packages are missing. */
const avaWorkspace = async (dir, skipped) => {
  console.log(`\n=== ${dir}: ava`);
  const files = testFiles(dir);
  const left = files.filter((file) => !skipped.has(`${dir}/${file}`));
  const skips = skipSuites(files.filter((file) => skipped.has(`${dir}/${file}`)).map((file) => [`${dir}/${file}`, skipped.get(`${dir}/${file}`)]));
  if (left.length === 0) return skips;
  // ava's own timeout only bounds a hang (no test finishing for that long); a busy machine must not trip it.
  const args = ['--tap', `--timeout=${process.env.EPHEMAIL_TEST_IDLE_TIMEOUT ?? '5m'}`, ...(left.length < files.length ? left : [])];
  const { code, out } = await run('ava', args, join(root, dir), { capture: true });
  return add(tally(out, code), skips);
};

/**
 * Totals of a Playwright run from its JSON report (`stats.expected`, `unexpected`, `flaky`,
 * `skipped`), plus a failure when it ended badly without reporting one (a crashed global setup).
 */
const playwrightTally = (reportFile, code) => {
  let stats = {};
  try {
    stats = JSON.parse(readFileSync(reportFile, 'utf8')).stats ?? {};
  } catch {
    // No report, or half of one (Playwright was killed while writing it): the exit code decides.
  }
  const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
  const failed = stats.unexpected ?? 0;
  return { passed, failed: failed === 0 && code !== 0 ? 1 : failed, skipped: stats.skipped ?? 0 };
};

/** One workspace's Playwright specs (ava ignores `*.spec.ts`). */
const playwrightWorkspace = async (dir) => {
  console.log(`\n=== ${dir}: playwright test`);
  const reportDir = mkdtempSync(join(tmpdir(), 'ephemail-playwright-'));
  const reportFile = join(reportDir, 'report.json');
  // Workspace packages from their sources, as ava runs them: no build needed first.
  const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile, NODE_OPTIONS: `--conditions=@ephemail/source ${process.env.NODE_OPTIONS ?? ''}`.trim() };
  try {
    const { code } = await run('playwright', ['test', '--reporter=line,json'], join(root, dir), { env });
    return playwrightTally(reportFile, code);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
};

const main = async () => {
  const packages = prepareSystemPackages();
  if (packages.failure !== undefined) {
    console.log(`\n${packages.failure}`);
    record('system-packages', { passed: 0, failed: 1, skipped: 0 });
  }
  await check('typecheck', 'tsc', ['-b', 'tsconfig.build.json']);
  await check('typecheck-tests', 'tsc', ['-p', 'tsconfig.json']);
  await check('lint', 'eslint', ['.']);
  await check('boundaries', 'depcruise', ['core', 'adapters', 'hosts', '--config', '.dependency-cruiser.cjs']);
  for (const dir of workspaces().filter((d) => testFiles(d).length > 0)) {
    if (only.length > 0 && !only.includes(dir)) continue;
    record(dir, await avaWorkspace(dir, packages.skipped));
  }
  // Workspaces with a playwright.config.ts run their `*.spec.ts` files with Playwright.
  for (const dir of workspaces().filter((d) => existsSync(join(root, d, 'playwright.config.ts')))) {
    if (only.length > 0 && !only.includes(dir)) continue;
    const why = packages.skipped.get(dir);
    record(dir, why === undefined ? await playwrightWorkspace(dir) : skipSuites([[dir, why]]));
  }
};

try {
  await main();
} catch (error) {
  // A fault of the harness itself still ends in the closing line, as a failure.
  console.log(`\nThe test harness failed: ${error instanceof Error ? error.stack : String(error)}`);
  record('harness', { passed: 0, failed: 1, skipped: 0 });
}

console.log('\nSummary');
for (const [name, r] of rows) console.log(`  ${name.padEnd(24)} ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
// Skips are told on a line of their own: CI reads the last line, which must be `N passed, N failed` alone.
if (totals.skipped > 0) console.log(`${totals.skipped} skipped (tests skipped by their suites, and suites marked SKIP above)`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exitCode = totals.failed > 0 ? 1 : 0;
