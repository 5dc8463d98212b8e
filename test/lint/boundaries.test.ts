import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import test from 'ava';
import { repoRoot, tempDir } from '../e2e/support.js';

/** Writes a small tree that breaks each house rule once, next to the real lint configuration. */
const violatingTree = (dir: string): void => {
  const files: Record<string, string> = {
    'core/src/uses-express.ts': "import express from 'express';\nexport const app = express;\n",
    'core/src/uses-adapter.ts': "import { y } from '../../adapters/b/src/y.js';\nexport const z = y;\n",
    'adapters/a/src/x.ts': "import { y } from '../../b/src/y.js';\nexport const x = y;\n",
    'adapters/b/src/y.ts': 'export const y = 1;\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const name of ['.dependency-cruiser.cjs', 'tsconfig.base.json']) copyFileSync(join(repoRoot, name), join(dir, name));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: './tsconfig.base.json', include: ['core', 'adapters'] }));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
};

test('lint: the boundary rules fail on a framework in core, core importing an adapter, and adapter-to-adapter imports', (t) => {
  const { dir, cleanup } = tempDir('ephemail-lint');
  t.teardown(cleanup);
  violatingTree(dir);
  const run = spawnSync(join(repoRoot, 'node_modules/.bin/depcruise'), ['core', 'adapters', '--config', '.dependency-cruiser.cjs'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const out = `${run.stdout}${run.stderr}`;
  t.not(run.status, 0, out);
  t.regex(out, /core-imports-only-zod-fp-ts-and-node: core\/src\/uses-express\.ts/);
  t.regex(out, /core-imports-no-adapter-or-host: core\/src\/uses-adapter\.ts/);
  t.regex(out, /adapter-does-not-import-another-adapter: adapters\/a\/src\/x\.ts/);
});

test('lint: eslint refuses tsyringe outside hosts and allows it in a host', (t) => {
  const lint = (path: string) =>
    spawnSync(join(repoRoot, 'node_modules/.bin/eslint'), ['--stdin', '--stdin-filename', path], {
      cwd: repoRoot,
      input: "import { container } from 'tsyringe';\nexport const c = container;\n",
      encoding: 'utf8',
    });
  const adapter = lint('adapters/store-sqlite/src/uses-di.ts');
  t.not(adapter.status, 0);
  t.regex(adapter.stdout, /tsyringe lives only in hosts/);
  const core = lint('core/src/uses-di.ts');
  t.regex(core.stdout, /tsyringe lives only in hosts/);
  t.is(lint('hosts/api/src/uses-di.ts').status, 0, 'a host may use tsyringe');
});

test('lint: eslint refuses a spread-then-add literal on the per-message path, and allows overrides and other places', (t) => {
  const lint = (path: string, input: string) =>
    spawnSync(join(repoRoot, 'node_modules/.bin/eslint'), ['--stdin', '--stdin-filename', path], { cwd: repoRoot, input, encoding: 'utf8' });
  const spreadThenAdd = 'export const f = (event: object, position: number) => ({ ...event, position });\n';
  for (const path of ['core/src/mail/probe.ts', 'core/src/store/probe.ts', 'adapters/mail-smtp/src/session-handlers.ts', 'hosts/api/src/delivery-threads.ts']) {
    const run = lint(path, spreadThenAdd);
    t.not(run.status, 0, path);
    t.regex(run.stdout, /ADR 0024/, path);
  }
  t.is(lint('core/src/mail/probe.ts', 'export const f = (event: object, position: number) => Object.assign({}, event, { position });\n').status, 0);
  t.is(lint('core/src/mail/probe.ts', 'export const f = (event: object) => ({ ...event });\n').status, 0);
  t.is(lint('hosts/api/src/config-probe.ts', spreadThenAdd).status, 0, 'start-up code may spread');
});
