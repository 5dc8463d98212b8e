/**
 * Child processes of the benchmark: started, watched, and always stopped, whether the run ends
 * normally, throws, or is interrupted, so no server is left holding a port or a temp database.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  /** The last lines the child wrote, shown when it dies early. */
  readonly tail: () => string;
  /** Resolves when the child has exited, however that happened. */
  readonly exited: Promise<number | null>;
}

const running = new Set<Child>();
const TAIL_CHARS = 4000;

/** Starts `node <args>` with the given extra environment; its output is kept, not echoed. */
export const spawnNode = (name: string, args: readonly string[], env: Record<string, string>, cwd: string): Child => {
  const child = spawn(process.execPath, [...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle: Child = { name, process: child, tail: () => output, exited };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
};

/** Asks a child to stop, then kills it if it has not exited within the grace period. */
export const stopChild = async (child: Child, graceMs = 3000): Promise<void> => {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
};

export const stopAll = async (): Promise<void> => {
  await Promise.all([...running].map((child) => stopChild(child)));
};

/** Last resort on process exit, where only synchronous work runs. */
const killAllNow = () => {
  for (const child of running) child.process.kill('SIGKILL');
};

/**
 * Stops the children on every way out. `cleanup` runs once, after they stopped (it removes the
 * temp database, which the host holds open until then).
 */
export const installExitHandlers = (cleanup: () => void): void => {
  let once = false;
  const finish = () => {
    if (once) return;
    once = true;
    cleanup();
  };
  process.once('exit', () => {
    killAllNow();
    finish();
  });
  // Exit as a process killed by the signal would (128 + its number), so callers see why.
  const codes = { SIGINT: 130, SIGTERM: 143 } as const;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal} received, stopping the servers`);
      void stopAll().finally(() => {
        finish();
        process.exit(codes[signal]);
      });
    });
  }
};

/** A port nobody listens on at the moment (the host needs one before it starts). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `url` until it answers 200; fails early when the child dies, or after `timeoutMs`. */
export const waitForReady = async (child: Child, url: string, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) {
      throw new Error(`${child.name} exited with code ${child.process.exitCode} before it was ready:\n${child.tail()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`${child.name} was not ready at ${url} after ${timeoutMs} ms:\n${child.tail()}`);
};

/** Waits for the first stdout line that parses as JSON (how the bare server reports its port). */
export const firstJsonLine = (child: Child, timeoutMs = 20_000): Promise<Record<string, unknown>> =>
  new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${child.name} printed nothing in ${timeoutMs} ms:\n${child.tail()}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (const line of buffered.split('\n').slice(0, -1)) {
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          clearTimeout(timer);
          child.process.stdout?.off('data', onData);
          return resolve(parsed);
        } catch {
          // Some other line; keep reading.
        }
      }
    };
    child.process.stdout?.on('data', onData);
    void child.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${child.name} exited with code ${code}:\n${child.tail()}`));
    });
  });
