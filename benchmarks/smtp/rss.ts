/**
 * Resident memory of a server process, read from /proc/<pid>/status (VmRSS) on a timer while
 * smtp-source runs and once more after it finished, each sample tagged with how many messages
 * had been answered by then, so the figure "at 10 % of the run" is a point in the message
 * stream rather than in time.
 */
import { readFileSync } from 'node:fs';

export interface RssSample {
  readonly ms: number;
  readonly completed: number;
  readonly kib: number;
}

export interface RssSummary {
  /** RSS once the first 10 % of the messages were answered. */
  readonly atTenPercentMiB: number;
  /** Highest RSS seen during the run. */
  readonly peakMiB: number;
  /** RSS a moment after the last message was answered. */
  readonly afterMiB: number;
  /** (after − at 10 %) / at 10 %, in percent. */
  readonly changePct: number;
  /** Whether the change stays within ±10 %. */
  readonly flat: boolean;
  readonly samples: number;
  /** Messages per second over the first and the last tenth of the run (a slowdown as the store grows shows here). */
  readonly pace: { readonly firstTenthPerSec: number | null; readonly lastTenthPerSec: number | null };
}

const SAMPLE_EVERY_MS = 200;
const FLAT_PCT = 10;

/** VmRSS of `pid` in KiB, or undefined when the process is gone (or /proc is not there). */
export const readRssKiB = (pid: number): number | undefined => {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
};

export class RssSampler {
  private readonly samples: RssSample[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly started = Date.now();
  private completed = 0;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
    this.sample();
  }

  /** Tells the sampler how far the run got (smtp-source's counter). */
  progress(completed: number): void {
    this.completed = completed;
  }

  sample(): void {
    const kib = readRssKiB(this.pid);
    if (kib !== undefined) this.samples.push({ ms: Date.now() - this.started, completed: this.completed, kib });
  }

  /** Stops sampling; the last sample taken is the "after" figure. */
  stop(totalMessages: number): RssSummary | undefined {
    clearInterval(this.timer);
    this.sample();
    return summarise(this.samples, totalMessages);
  }
}

const mib = (kib: number): number => Number((kib / 1024).toFixed(1));

export const summarise = (samples: readonly RssSample[], totalMessages: number): RssSummary | undefined => {
  const after = samples.at(-1);
  const tenth = samples.find((s) => s.completed >= totalMessages / 10);
  if (after === undefined || tenth === undefined) return undefined;
  const changePct = Number((((after.kib - tenth.kib) / tenth.kib) * 100).toFixed(1));
  return {
    atTenPercentMiB: mib(tenth.kib),
    peakMiB: mib(Math.max(...samples.map((s) => s.kib))),
    afterMiB: mib(after.kib),
    changePct,
    flat: Math.abs(changePct) <= FLAT_PCT,
    samples: samples.length,
    pace: pace(samples, totalMessages),
  };
};

/** Rates between sample points, so only as precise as the sampling interval allows. */
const pace = (samples: readonly RssSample[], total: number): RssSummary['pace'] => {
  const rate = (from: RssSample | undefined, to: RssSample | undefined) =>
    from === undefined || to === undefined || to.ms <= from.ms ? null : Math.round(((to.completed - from.completed) * 1000) / (to.ms - from.ms));
  const first = samples[0];
  const tenth = samples.find((s) => s.completed >= total / 10);
  const ninetieth = samples.find((s) => s.completed >= (total * 9) / 10);
  const done = samples.find((s) => s.completed >= total);
  return { firstTenthPerSec: rate(first, tenth), lastTenthPerSec: rate(ninetieth, done) };
};
