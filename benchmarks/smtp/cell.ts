/**
 * One measured run: a fresh target, a short warm-up with the same size and connection pattern,
 * then the timed smtp-source run with the server's memory sampled, then (for the host) the check
 * that every message smtp-source saw accepted is in the store, and finally the target stopped.
 */
import { countMessages, createIdentity } from './host-api.js';
import type { RssSummary } from './rss.js';
import { RssSampler } from './rss.js';
import type { SourceResult } from './source.js';
import { runSource } from './source.js';
import type { SmtpTarget, TargetKey } from './targets.js';
import { INBOX_DOMAIN, startTarget } from './targets.js';

export interface CellSpec {
  readonly target: TargetKey;
  readonly sizeKiB: number;
  readonly reuse: boolean;
  readonly messages: number;
  readonly warmup: number;
  /** Which round of the host / parse-only pairs this run belongs to, from 0 (see run.ts). */
  readonly round: number;
}

export interface StoredCheck {
  /** Messages smtp-source saw answered 250, warm-up included. */
  readonly sent: number;
  /** Messages the identity holds afterwards, by the API. */
  readonly stored: number;
}

export interface CellResult extends CellSpec {
  readonly payloadBytes: number;
  readonly warm: SourceResult;
  /** Missing when the warm-up already failed. */
  readonly run: SourceResult | undefined;
  readonly rss: RssSummary | undefined;
  readonly stored: StoredCheck | undefined;
  /** The server was still running when the run ended (it is stopped only afterwards). */
  readonly stayedUp: boolean;
}

/** Settling time after the last message before the "after" memory sample. */
const SETTLE_MS = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const patternName = (reuse: boolean): string => (reuse ? 'reused connections (-d)' : 'one message per connection');

/** Prints a line each time another quarter of the messages has been answered. */
const quarterReporter = (label: string, total: number) => {
  let printed = 0;
  return (completed: number) => {
    const quarter = Math.floor((completed / total) * 4);
    if (quarter <= printed || quarter >= 4) return;
    printed = quarter;
    console.log(`    ${label}: ${completed}/${total}`);
  };
};

const measured = async (spec: CellSpec, target: SmtpTarget, recipient: string): Promise<Omit<CellResult, keyof CellSpec | 'stored' | 'stayedUp'>> => {
  const payloadBytes = spec.sizeKiB * 1024;
  const base = { port: target.smtpPort, recipient, payloadBytes, reuse: spec.reuse };
  const warm = await runSource({ ...base, messages: spec.warmup });
  if (warm.exitCode !== 0) return { payloadBytes, warm, run: undefined, rss: undefined };
  const pid = target.child.process.pid;
  const sampler = pid === undefined ? undefined : new RssSampler(pid);
  const report = quarterReporter(target.key, spec.messages);
  const run = await runSource({
    ...base,
    messages: spec.messages,
    onProgress: (completed) => {
      sampler?.progress(completed);
      report(completed);
    },
  });
  await sleep(SETTLE_MS);
  return { payloadBytes, warm, run, rss: sampler?.stop(spec.messages) };
};

/** Runs one cell from start to stop; the target is stopped whatever happens. */
export const runCell = async (root: string, spec: CellSpec, hostNodeArgs: readonly string[] = []): Promise<CellResult> => {
  const target = await startTarget(root, spec.target, hostNodeArgs);
  try {
    const identity = target.api === undefined ? undefined : await createIdentity(target.api, 'smtp throughput');
    const recipient = identity?.email ?? `bench@${INBOX_DOMAIN}`;
    const result = await measured(spec, target, recipient);
    const stayedUp = target.child.process.exitCode === null && target.child.process.signalCode === null;
    const stored = target.api !== undefined && identity !== undefined && stayedUp
      ? { sent: result.warm.completed + (result.run?.completed ?? 0), stored: await countMessages(target.api, identity.id) }
      : undefined;
    return { ...spec, ...result, stored, stayedUp };
  } finally {
    await target.stop();
  }
};
