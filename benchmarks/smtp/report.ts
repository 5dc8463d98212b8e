/** Judges the runs (goals reported, soundness checked) and builds the results document. */
import { arch, availableParallelism, cpus, loadavg, platform, totalmem } from 'node:os';
import type { CellResult } from './cell.js';
import { patternName } from './cell.js';
import type { LatencyResult } from './latency.js';
import { SESSIONS } from './source.js';
import type { TargetKey } from './targets.js';
import { TARGET_NAMES } from './targets.js';
import { median } from '../api/load.js';

export interface Goal {
  readonly name: string;
  readonly target: string;
  readonly measured: number | null;
  /** null when it could not be judged (a target left out, or its run failed). */
  readonly met: boolean | null;
}

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface Settings {
  readonly messages: number;
  readonly warmup: number;
  readonly sizesKiB: readonly number[];
  readonly latencyMessages: number;
  readonly soakMessages: number | null;
  readonly targets: readonly TargetKey[];
  /** Host / parse-only pairs per size and pattern. */
  readonly rounds: number;
}

/** Load average when the run started: other work on the machine skews every number here. */
const loadAtStart = loadavg()[0] ?? 0;

const machine = () => ({
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
  memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
  node: process.version,
  platform: `${platform()}-${arch()}`,
  loadAverage1mAtStart: Number(loadAtStart.toFixed(2)),
});

/** One target's measured rate in each round of one size and pattern, by round. */
const ratesByRound = (cells: readonly CellResult[], key: TargetKey, sizeKiB: number, reuse: boolean): Map<number, number> =>
  new Map(cells.filter((c) => c.target === key && c.sizeKiB === sizeKiB && c.reuse === reuse && c.run !== undefined).map((c) => [c.round, c.run!.messagesPerSec]));

/** The median of a target's rounds (most targets run once). */
const rate = (cells: readonly CellResult[], key: TargetKey, sizeKiB: number, reuse: boolean): number | undefined => {
  const rates = [...ratesByRound(cells, key, sizeKiB, reuse).values()];
  return rates.length === 0 ? undefined : median(rates);
};

const ratioOf = (a: number | undefined, b: number | undefined): number | null =>
  a === undefined || b === undefined || b === 0 ? null : Number((a / b).toFixed(3));

/**
 * Host rate over each other target's, per size and connection pattern. Host over parse-only is
 * the median of the rounds' ratios (each round's pair ran back to back); the others compare the
 * host's median rate with the baseline's one run.
 */
export const ratios = (cells: readonly CellResult[], settings: Settings) =>
  settings.sizesKiB.flatMap((sizeKiB) =>
    [true, false].map((reuse) => {
      const host = ratesByRound(cells, 'host', sizeKiB, reuse);
      const parse = ratesByRound(cells, 'parse', sizeKiB, reuse);
      const rounds = [...host].flatMap(([round, rate]) => {
        const ratio = ratioOf(rate, parse.get(round));
        return ratio === null ? [] : [ratio];
      });
      const hostRate = rate(cells, 'host', sizeKiB, reuse);
      return {
        sizeKiB, reuse, pattern: patternName(reuse),
        hostPerParse: rounds.length === 0 ? null : Number(median(rounds).toFixed(3)),
        hostPerParseRounds: rounds,
        hostPerMaildev: ratioOf(hostRate, rate(cells, 'maildev', sizeKiB, reuse)),
        hostPerDiscard: ratioOf(hostRate, rate(cells, 'discard', sizeKiB, reuse)),
      };
    }),
  );

/** The host run with the most bytes (of the cells; the soak is judged on its own). */
export const largestHostRun = (cells: readonly CellResult[]): CellResult | undefined => {
  const bytes = (c: CellResult) => c.messages * c.payloadBytes;
  const measured = cells.filter((c) => c.target === 'host' && c.rss !== undefined);
  return measured.sort((a, b) => bytes(a) - bytes(b) || Number(a.reuse) - Number(b.reuse)).at(-1);
};

/** The ±10 % memory goal on one host run. */
const rssGoal = (run: CellResult | undefined, what: string): Goal => ({
  name: `host RSS change from 10 % to the end, ${run === undefined ? 'no host run' : `${run.messages} messages of ${run.sizeKiB} KiB${what}`}, %`,
  target: 'within ±10',
  measured: run?.rss?.changePct ?? null,
  met: run?.rss?.flat ?? null,
});

/** Host msg/s over the parse-only server's, each cell. */
const PARSE_RATIO_GOAL = 0.55;
const LATENCY_P99_GOAL_MS = 10;

export const judgeGoals = (cells: readonly CellResult[], settings: Settings, latency: LatencyResult | undefined, soak: CellResult | undefined): Goal[] => {
  const goals: Goal[] = ratios(cells, settings).flatMap((r) => {
    // MailDev is beaten twice over on the busiest cell (small messages, reused connections).
    const overMaildev = r.sizeKiB === 4 && r.pattern === 'reused' ? 2 : 1;
    return [
      { name: `host/parse-only msg/s, ${r.sizeKiB} KiB, ${r.pattern}, median of ${r.hostPerParseRounds.length} rounds`, target: `>= ${PARSE_RATIO_GOAL}`, measured: r.hostPerParse, met: r.hostPerParse === null ? null : r.hostPerParse >= PARSE_RATIO_GOAL },
      { name: `host/MailDev msg/s, ${r.sizeKiB} KiB, ${r.pattern}`, target: `>= ${overMaildev}`, measured: r.hostPerMaildev, met: r.hostPerMaildev === null ? null : r.hostPerMaildev >= overMaildev },
    ];
  });
  const p99 = latency?.apiMs.p99 ?? null;
  goals.push({ name: 'end of DATA to long-poll answer, p99 ms', target: `< ${LATENCY_P99_GOAL_MS}`, measured: p99, met: p99 === null ? null : p99 < LATENCY_P99_GOAL_MS });
  // Over the largest run of the cells, and over the soak when it ran.
  goals.push(rssGoal(largestHostRun(cells), ''));
  if (soak !== undefined) goals.push(rssGoal(soak, ' (soak)'));
  return goals;
};

const cellLabel = (c: CellResult) => `${TARGET_NAMES[c.target]}, ${c.sizeKiB} KiB, ${patternName(c.reuse)}, round ${c.round + 1}`;

export const soundnessChecks = (cells: readonly CellResult[], latency: LatencyResult | undefined): Check[] => [
  ...cells.map((c) => ({
    name: `${cellLabel(c)}: every message answered 250`,
    ok: c.warm.exitCode === 0 && c.run?.exitCode === 0 && c.run.completed === c.messages,
    detail: c.run === undefined
      ? `the warm-up stopped after ${c.warm.completed}/${c.warmup}: ${c.warm.stderr || `exit ${c.warm.exitCode}`}`
      : `${c.run.completed}/${c.messages} answered, exit ${c.run.exitCode}${c.run.stderr === '' ? '' : `: ${c.run.stderr}`}`,
  })),
  ...cells.map((c) => ({ name: `${cellLabel(c)}: server stayed up`, ok: c.stayedUp, detail: c.stayedUp ? 'running until stopped' : 'exited during the run' })),
  ...cells.filter((c) => c.target === 'host').map((c) => ({
    name: `${cellLabel(c)}: stored = sent (nothing accepted was lost)`,
    ok: c.stored !== undefined && c.stored.stored === c.stored.sent,
    detail: c.stored === undefined ? 'not checked (the host stopped)' : `${c.stored.stored} stored for ${c.stored.sent} answered 250 (warm-up included)`,
  })),
  ...(latency === undefined
    ? []
    : [{ name: 'every long-poll revealed the code just sent', ok: latency.wrongAnswers === 0, detail: `${latency.wrongAnswers} wrong or missing answers` }]),
];

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

export const resultsDocument = (cells: readonly CellResult[], settings: Settings, latency: LatencyResult | undefined, soak: CellResult | undefined) => ({
  benchmark: 'smtp',
  timestamp: new Date().toISOString(),
  machine: machine(),
  settings: {
    ...settings, sessions: SESSIONS, store: 'sqlite (temp file)', mailAuth: 'off',
    greetingDelay: 'host 0 ms (its default); smtp-server baselines patched to greet at once; MailDev keeps smtp-server\'s fixed 100 ms',
    // The host process inherits the environment; without DELIVERY_THREADS it takes its default.
    deliveryThreads: process.env.DELIVERY_THREADS === undefined ? `host default (${availableParallelism() > 1 ? 1 : 0} on this machine)` : `${process.env.DELIVERY_THREADS} (DELIVERY_THREADS)`,
    soak: settings.soakMessages === null ? 'off (BENCH_SMTP_SOAK=100000 runs it)' : `${settings.soakMessages} messages of 4 KiB, reused connections, host only`,
  },
  runs: [...cells, ...(soak === undefined ? [] : [soak])].map((c) => ({
    target: c.target, name: TARGET_NAMES[c.target], sizeKiB: c.sizeKiB, payloadBytes: c.payloadBytes, pattern: c.reuse ? 'reused' : 'per-connection',
    messages: c.messages, warmupMessages: c.warmup, soak: c === soak, round: c.round + 1,
    messagesPerSec: c.run === undefined ? null : round(c.run.messagesPerSec), wallS: c.run === undefined ? null : round(c.run.wallMs / 1000, 2),
    completed: c.run?.completed ?? 0, rss: c.rss ?? null, stored: c.stored ?? null, stayedUp: c.stayedUp,
  })),
  ratios: ratios(cells, settings),
  latency: latency ?? null,
  goals: judgeGoals(cells, settings, latency, soak),
  checks: soundnessChecks([...cells, ...(soak === undefined ? [] : [soak])], latency),
});

export type ResultsDocument = ReturnType<typeof resultsDocument>;
