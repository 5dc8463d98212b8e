#!/usr/bin/env node
// Builds the web app served at `/` and the team console at `/console` (ADRs 0041, 0057):
// type-checks hosts/api/web with its own DOM tsconfig, bundles each page's script and stylesheet
// with esbuild (the console's from web/console/, its own bundle), and writes each page's HTML
// pointing at them, into hosts/api/dist/web. Everything the pages need ends up in these files: no
// CDN, no inline script, so they run under `Content-Security-Policy: default-src 'self'`.
// Every file is written whole under a temporary name and renamed into place, and stale files are
// removed only after, so two builds at once (two test files) never serve a half-written file.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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
await mkdir(out, { recursive: true });
const result = await build({
  entryPoints: [join(source, 'app.ts'), join(source, 'styles.css'), join(source, 'console', 'console.ts'), join(source, 'console', 'console.css')],
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
  write: false,
});
/** Writes a file whole: to a temporary name first, then renamed over the old one (atomic). */
const writeWhole = async (path, contents) => {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
};
for (const file of result.outputFiles) await writeWhole(file.path, file.contents);
/** The hashed file name esbuild wrote for one source entry. */
const outputOf = (entry) => {
  const [path] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === `web/${entry}`) ?? [];
  if (path === undefined) throw new Error(`no output for web/${entry}`);
  return path.slice(path.lastIndexOf('/') + 1);
};
/** A page's HTML with its script and stylesheet replaced by their hashed names. */
const page = async (html, script, styles) =>
  (await readFile(join(source, html), 'utf8'))
    .replace(`src="/${script.replace(/^.*\//, '').replace(/\.ts$/, '.js')}"`, `src="/${outputOf(script)}"`)
    .replace(`href="/${styles.replace(/^.*\//, '')}"`, `href="/${outputOf(styles)}"`);
await writeWhole(join(out, 'index.html'), await page('index.html', 'app.ts', 'styles.css'));
await writeWhole(join(out, 'console.html'), await page('console/console.html', 'console/console.ts', 'console/console.css'));
// Files of earlier builds (other hashes) go; a concurrent build of the same sources keeps the same set.
const kept = new Set([...result.outputFiles.map((f) => f.path.slice(f.path.lastIndexOf('/') + 1)), 'index.html', 'console.html']);
for (const name of await readdir(out)) if (!kept.has(name) && !name.endsWith('.tmp')) await rm(join(out, name), { recursive: true, force: true });
console.log(`web app built into ${out} in ${Date.now() - started} ms`);
