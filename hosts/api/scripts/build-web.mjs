#!/usr/bin/env node
// Builds the web app served at `/` (ADR 0041): type-checks hosts/api/web with its own DOM
// tsconfig, bundles app.ts (to app.js) and styles.css with esbuild, and copies index.html, into
// hosts/api/dist/web. Everything the page needs ends up in these three files: no CDN, no inline
// script, so the page runs under `Content-Security-Policy: default-src 'self'`.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const hostDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(hostDir, 'web');
const out = join(hostDir, 'dist', 'web');

/** The same checks `tsc -p web` would run; fails the build on any error. */
const typeCheck = () => {
  const configPath = join(source, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, source);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length === 0) return;
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => hostDir, getNewLine: () => '\n' };
  throw new Error(`web app type errors:\n${ts.formatDiagnostics(diagnostics, host)}`);
};

const started = Date.now();
if (process.env.WEB_SKIP_TYPECHECK !== '1') typeCheck();
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const result = await build({
  entryPoints: [join(source, 'app.ts'), join(source, 'styles.css')],
  outdir: out,
  absWorkingDir: hostDir,
  bundle: true,
  format: 'esm',
  target: ['es2022'],
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  // Content-hashed names: the host can let browsers keep them for a year (immutable).
  entryNames: '[name]-[hash]',
  metafile: true,
});
/** The hashed file name esbuild wrote for one source entry. */
const outputOf = (entry) => {
  const [path] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === `web/${entry}`) ?? [];
  if (path === undefined) throw new Error(`no output for web/${entry}`);
  return path.slice(path.lastIndexOf('/') + 1);
};
const html = (await readFile(join(source, 'index.html'), 'utf8'))
  .replace('src="/app.js"', `src="/${outputOf('app.ts')}"`)
  .replace('href="/styles.css"', `href="/${outputOf('styles.css')}"`);
await writeFile(join(out, 'index.html'), html);
console.log(`web app built into ${out} in ${Date.now() - started} ms`);
