/**
 * Several smtp-source processes at once, one per host. The smtp benchmark's runner tracks a single
 * process; this one keeps every process it started, so all of them can be killed on the way out.
 * The arguments are the smtp benchmark's own (20 sessions, reused connections), so both benchmarks
 * drive the host the same way.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sourceArgs } from '../smtp/source.js';

export const PAYLOAD_BYTES = 4096;

export interface SourceJob {
  readonly port: number;
  readonly recipient: string;
  readonly messages: number;
}

export interface SourceOutcome extends SourceJob {
  /** 0 means every message was answered 250 (smtp-source stops at the first other reply). */
  readonly exitCode: number | null;
  readonly wallMs: number;
  readonly stderr: string;
}

const children = new Set<ChildProcess>();

/** Kills every smtp-source still running (for the exit handlers). */
export const killSources = (): void => {
  for (const child of children) child.kill('SIGKILL');
};

// smtp-source is in sbin, which a normal user's PATH often lacks.
const binary = (): string => {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  const found = dirs.map((dir) => join(dir, 'smtp-source')).find((path) => existsSync(path));
  if (found === undefined) throw new Error("smtp-source not found: install the 'postfix' package (Debian/Ubuntu), which ships it");
  return found;
};

const runOne = (path: string, job: SourceJob): Promise<SourceOutcome> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const args = sourceArgs({ ...job, payloadBytes: PAYLOAD_BYTES, reuse: true });
    // Its stdout is only a progress counter: not read.
    const child = spawn(path, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.once('error', (error) => {
      children.delete(child);
      reject(error);
    });
    child.once('close', (code) => {
      children.delete(child);
      resolve({ ...job, exitCode: code, wallMs: performance.now() - started, stderr: stderr.trim() });
    });
  });

/** Starts every job at the same moment; resolves when the last one finished, with the overall wall time. */
export const runSources = async (jobs: readonly SourceJob[]): Promise<{ outcomes: SourceOutcome[]; wallMs: number }> => {
  const path = binary();
  const started = performance.now();
  const outcomes = await Promise.all(jobs.map((job) => runOne(path, job)));
  return { outcomes, wallMs: performance.now() - started };
};
