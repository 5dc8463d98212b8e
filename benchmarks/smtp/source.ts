/**
 * Drives one server with Postfix's `smtp-source` and times it. smtp-source stops at the first
 * reply it did not expect, so an exit code of 0 means every message was answered 250; its `-c`
 * counter (one number per completed DATA) tells how many got that far when it did stop.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { performance } from 'node:perf_hooks';

export const SESSIONS = 20;
export const SENDER = 'from@bench.test';

export interface SourceRun {
  readonly port: number;
  readonly recipient: string;
  readonly messages: number;
  /** Payload bytes per message (smtp-source adds about 130 bytes of headers). */
  readonly payloadBytes: number;
  /** `-d`: keep each session's connection for its next message. */
  readonly reuse: boolean;
  /** Called now and then with the number of messages answered so far. */
  readonly onProgress?: (completed: number) => void;
}

export interface SourceResult {
  /** Messages whose DATA completed (answered 250). */
  readonly completed: number;
  readonly exitCode: number | null;
  readonly wallMs: number;
  readonly messagesPerSec: number;
  /** What smtp-source said on stderr, when anything (its fatal message when it stopped). */
  readonly stderr: string;
}

// smtp-source lives in sbin, which is often not on a normal user's PATH.
const locate = (): string => {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  const found = dirs.map((dir) => join(dir, 'smtp-source')).find((path) => existsSync(path));
  if (found === undefined) throw new Error("smtp-source not found: install the 'postfix' package (Debian/Ubuntu), which ships it");
  return found;
};

let binary: string | undefined;
let current: ChildProcess | undefined;

/** Kills a running smtp-source at once (for the exit handlers). */
export const killSource = (): void => {
  current?.kill('SIGKILL');
};

export const sourceArgs = (run: SourceRun): string[] => [
  '-c', '-s', String(SESSIONS), '-m', String(run.messages), '-l', String(run.payloadBytes),
  ...(run.reuse ? ['-d'] : []), '-f', SENDER, '-t', run.recipient, `127.0.0.1:${run.port}`,
];

/** Runs smtp-source to completion (or to its first failure) and reports what it achieved. */
export const runSource = (run: SourceRun): Promise<SourceResult> =>
  new Promise((resolve, reject) => {
    binary ??= locate();
    const started = performance.now();
    const child = spawn(binary, sourceArgs(run), { stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    let completed = 0;
    let pending = '';
    let stderr = '';
    // The counter arrives as "1\r2\r3\r…", possibly split across chunks: keep the unfinished tail.
    child.stdout.on('data', (chunk: Buffer) => {
      const parts = (pending + chunk.toString('latin1')).split(/[\r\n]/);
      pending = parts.pop() ?? '';
      const last = parts.filter((part) => part !== '').at(-1);
      if (last !== undefined) completed = Number(last);
      run.onProgress?.(completed);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      current = undefined;
      const wallMs = performance.now() - started;
      if (pending !== '') completed = Number(pending);
      resolve({ completed, exitCode: code, wallMs, messagesPerSec: completed / (wallMs / 1000), stderr: stderr.trim() });
    });
  });
