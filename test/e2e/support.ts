import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(fileURLToPath(import.meta.url), '../../..');

/** Node arguments that run workspace sources directly. */
export const SOURCE_NODE_ARGS = ['--import=tsx', '--conditions=@ephemail/source'];

/** A fresh temporary folder, removed by the returned cleanup. */
export const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

/** A node child process from source, with its stdout collected and awaited lines. */
export const spawnNode = (script: string, args: string[], env: Record<string, string>) => {
  const child: ChildProcess = spawn(process.execPath, [...SOURCE_NODE_ARGS, script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const waitFor = async (pattern: RegExp, timeoutMs = 120_000): Promise<RegExpMatchArray> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // The development key's notice is on stderr; log lines on stdout.
      const match = pattern.exec(stdout) ?? pattern.exec(stderr);
      if (match) return match;
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`no ${pattern} in output:\n${stdout}\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exited, waitFor, output: () => ({ stdout, stderr }) };
};

/** A free TCP port on loopback. */
export const freePort = async (): Promise<number> => {
  const { createServer } = await import('node:net');
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
};
