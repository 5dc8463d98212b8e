import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'bin', 'ephemail.js');

/** A copy of the package's bin file in a fresh folder, with or without a built CLI beside it. */
const packageCopy = (t: { teardown: (fn: () => void) => void }, cli?: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-bin-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(BIN, join(dir, 'bin', 'ephemail.js'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  if (cli !== undefined) {
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'cli.js'), cli);
  }
  return join(dir, 'bin', 'ephemail.js');
};

const run = (bin: string, args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = execFile(process.execPath, [bin, ...args], (_error, stdout, stderr) => done({ code: child.exitCode, stdout, stderr }));
  });

test('cli bin: package.json links `ephemail` to the committed bin file, an executable node script', (t) => {
  const pkg = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as { bin: Record<string, string> };
  t.is(pkg.bin.ephemail, './bin/ephemail.js');
  t.true(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n'));
  t.not(statSync(BIN).mode & 0o111, 0, 'the bin file is executable');
});

test('cli bin: before a build it says to run `npm run build` first and exits 1', async (t) => {
  const { code, stdout, stderr } = await run(packageCopy(t), ['keys', 'list']);
  t.is(code, 1);
  t.is(stdout, '');
  t.regex(stderr, /dist\/cli\.js is missing/);
  t.regex(stderr, /Run `npm run build` first/);
});

test('cli bin: after a build it hands over to dist/cli.js with the arguments untouched', async (t) => {
  const cli = 'process.stdout.write(JSON.stringify(process.argv.slice(2))); process.exitCode = 3;\n';
  const { code, stdout } = await run(packageCopy(t, cli), ['extract', '--reveal', 'a b.eml']);
  t.is(code, 3);
  t.deepEqual(JSON.parse(stdout), ['extract', '--reveal', 'a b.eml']);
});
