import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { repoRoot } from '../e2e/support.js';

/** The ```ts block that follows `<!-- example: name -->` in a README. */
const exampleOf = (readme: string, name: string): string => {
  const marker = readme.indexOf(`<!-- example: ${name} -->`);
  if (marker < 0) throw new Error(`no example named ${name}`);
  const open = readme.indexOf('```ts\n', marker);
  const close = readme.indexOf('\n```', open + 6);
  return readme.slice(open + 6, close + 1);
};

test("docs: core/README.md's complete example, run as written, prints a redacted extraction and a refused reveal", (t) => {
  const code = exampleOf(readFileSync(join(repoRoot, 'core/README.md'), 'utf8'), 'redacted-extraction');
  // Inside the workspace, so `@ephemail/*` resolve as they do for the test suites.
  const file = join(repoRoot, 'test', `.readme-example-${randomUUID()}.ts`);
  writeFileSync(file, code);
  t.teardown(() => rmSync(file, { force: true }));
  const run = spawnSync(process.execPath, ['--import=tsx', '--conditions=@ephemail/source', file], { cwd: join(repoRoot, 'test'), encoding: 'utf8' });
  t.is(run.status, 0, run.stderr);
  const [shown, reveal] = run.stdout.trim().split('\n');
  t.regex(shown ?? '', /^otp 5•••0 0\.\d+$/);
  t.true(Number(shown!.split(' ')[2]) >= 0.5, shown);
  t.is(reveal, 'Forbidden');
  t.false(run.stdout.includes('583920'), 'the raw code is printed nowhere');
});
