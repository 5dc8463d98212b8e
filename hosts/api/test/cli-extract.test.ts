import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import test from 'ava';
import { runExtractCommand } from '../src/cli/extract-command.js';

const here = dirname(fileURLToPath(import.meta.url));

const codeMail = (code: string): string =>
  ['From: Acme <no-reply@acme.example.com>', 'Subject: Your Acme code', 'Content-Type: text/plain; charset=utf-8', '', 'Your verification code is:', '', code, ''].join('\r\n');

const linkMail = (href: string): string =>
  ['From: Acme <no-reply@acme.example.com>', 'Subject: Reset your password', 'Content-Type: text/html; charset=utf-8', '', `<p>Click below to reset your password.</p><a href="${href}">Reset password</a>`, ''].join('\r\n');

const run = async (args: string[]) => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await runExtractCommand(args, { stdout, stderr });
  const lines = Buffer.concat(out).toString('utf8').split('\n').filter(Boolean);
  return { code, lines: lines.map((l) => JSON.parse(l) as Record<string, unknown>), stderr: Buffer.concat(err).toString('utf8') };
};

const fixtureDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'extract-'));
  await mkdir(join(dir, 'inbox', 'nested'), { recursive: true });
  await writeFile(join(dir, 'inbox', 'a.eml'), codeMail('582014'));
  await writeFile(join(dir, 'inbox', 'nested', 'b.eml'), linkMail('https://acme.example.com/reset?token=Rz81Kq7PvLm3Nw0tY2aB'));
  await writeFile(join(dir, 'inbox', 'notes.txt'), 'not a message');
  await writeFile(join(dir, 'single.eml'), codeMail('604117'));
  return dir;
};

test('cli extract: prints one redacted JSON line per file, in input order, directories recursively', async (t) => {
  const dir = await fixtureDir();
  const { code, lines } = await run([join(dir, 'single.eml'), join(dir, 'inbox')]);
  t.is(code, 0);
  t.deepEqual(lines.map((l) => l.file), [join(dir, 'single.eml'), join(dir, 'inbox', 'a.eml'), join(dir, 'inbox', 'nested', 'b.eml')]);
  const first = (lines[0]?.extractions as Record<string, unknown>[])[0];
  t.like(first, { type: 'otp', redacted_value: '6•••7', link_kind: null });
  t.false('value' in first!, 'the raw value is left out, as the API leaves it out');
  const link = (lines[2]?.extractions as Record<string, unknown>[])[0];
  t.like(link, { type: 'magic_link', redacted_value: 'https://acme.example.com/•••', link_kind: 'password_reset' });
  t.false(JSON.stringify(lines).includes('604117'));
});

test('cli extract: --reveal adds the raw value beside the redacted one, sorted by confidence', async (t) => {
  const dir = await fixtureDir();
  const { lines } = await run(['--reveal', join(dir, 'single.eml')]);
  const extractions = lines[0]?.extractions as { value: string; redacted_value: string; confidence: number }[];
  t.is(extractions[0]?.value, '604117');
  t.is(extractions[0]?.redacted_value, '6•••7');
  for (let i = 1; i < extractions.length; i += 1) t.true((extractions[i - 1]?.confidence ?? 0) >= (extractions[i]?.confidence ?? 0));
});

test('cli extract: --explain lists the signals that decided each score, largest first, and no secret', async (t) => {
  const dir = await fixtureDir();
  const { code, lines } = await run(['--explain', join(dir, 'single.eml')]);
  t.is(code, 0);
  const top = (lines[0]?.extractions as { explain: { signal: string; contribution: number }[] }[])[0]!;
  t.true(top.explain.length > 0);
  const sizes = top.explain.map((e) => Math.abs(e.contribution));
  t.deepEqual(sizes, [...sizes].sort((a, b) => b - a));
  t.false(JSON.stringify(lines).includes('604117'));
  t.false('explain' in ((await run([join(dir, 'single.eml')])).lines[0]?.extractions as Record<string, unknown>[])[0]!);
});

test('cli extract: unreadable and unparseable files print an error line, the others are still processed, and the run exits 1', async (t) => {
  const dir = await fixtureDir();
  const empty = join(dir, 'empty.eml');
  await writeFile(empty, '');
  const missing = join(dir, 'missing.eml');
  const { code, lines } = await run([missing, empty, join(dir, 'single.eml')]);
  t.is(code, 1);
  t.deepEqual(lines[0], { file: missing, error: 'no such file or directory', extractions: [] });
  t.deepEqual(lines[1]?.extractions, []);
  t.is(lines.length, 3);
  t.is((lines[2]?.extractions as unknown[]).length > 0, true, 'the readable file after them was processed');
});

test('cli extract: a missing file alone exits non-zero', async (t) => {
  const dir = await fixtureDir();
  const { code, lines } = await run([join(dir, 'nope.eml')]);
  t.is(code, 1);
  t.is(lines[0]?.error, 'no such file or directory');
});

test('cli extract: --help and -h print the usage and the output fields on stdout, and exit 0', async (t) => {
  for (const flag of ['--help', '-h']) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    t.is(await runExtractCommand([flag, 'ignored.eml'], { stdout, stderr }), 0, flag);
    t.regex(out, /^usage: ephemail extract \[--reveal\]/);
    t.regex(out, /redacted_value/);
    t.is(err, '');
  }
});

test('cli extract: runs as a process', async (t) => {
  const dir = await fixtureDir();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import=tsx', '--conditions=@ephemail/source', join(here, 'fixtures', 'run-extract.ts'), '--reveal', join(dir, 'single.eml')],
    { cwd: join(here, '..') },
  );
  const printed = JSON.parse(stdout.trim());
  t.deepEqual(printed, { file: join(dir, 'single.eml'), extractions: [{ type: 'otp', redacted_value: '6•••7', value: '604117', link_kind: null, confidence: printed.extractions[0].confidence }] });
});
