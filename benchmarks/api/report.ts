/** Turns the measurements into the printed table and the JSON results file. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { Measurement, Timing } from './load.js';
import { CONNECTIONS } from './load.js';

export interface ScenarioResult {
  readonly name: string;
  /** What the host was asked, e.g. `GET /v1/identities/{id}`. */
  readonly route: string;
  readonly host: Measurement;
  readonly bare: Measurement;
  /** Each round's pair, measured back to back. */
  readonly rounds: readonly { readonly host: Measurement; readonly bare: Measurement }[];
  /** The median of the rounds' host/bare req/s ratios. */
  readonly ratio: number;
}

export interface Goal {
  readonly name: string;
  readonly target: string;
  readonly measured: number;
  readonly met: boolean;
}

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

const ratio = (scenario: ScenarioResult) => scenario.ratio;

/** The host's p99 may be at most this many times bare Express's, measured in the same rounds. */
const P99_OVER_BARE = 1.5;
const RATIO_GOALS: Record<string, number> = { get_identity: 0.6, create_identity: 0.4 };

/** The goals of the brief, judged on what was measured (a report, never an assertion). */
export const judgeGoals = (scenarios: readonly ScenarioResult[]): Goal[] =>
  scenarios.flatMap((scenario) => {
    const wanted = RATIO_GOALS[scenario.name];
    const goals: Goal[] = [];
    if (wanted !== undefined) {
      const measured = ratio(scenario);
      goals.push({ name: `${scenario.route} host/bare req/s`, target: `>= ${wanted}`, measured, met: measured >= wanted });
    }
    const p99 = scenario.host.latencyMs.p99;
    const bound = Number((P99_OVER_BARE * scenario.bare.latencyMs.p99).toFixed(1));
    goals.push({ name: `${scenario.route} host p99 at ${CONNECTIONS} connections, ms`, target: `<= ${P99_OVER_BARE} x bare's ${scenario.bare.latencyMs.p99} = ${bound}`, measured: p99, met: p99 <= bound });
    return goals;
  });

/** Load average when the run started: other work on the machine skews every number here. */
const loadAtStart = loadavg()[0] ?? 0;

const machine = () => {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    platform: `${platform()}-${arch()}`,
    loadAverage1mAtStart: Number(loadAtStart.toFixed(2)),
  };
};

export const resultsDocument = (scenarios: readonly ScenarioResult[], checks: readonly Check[], timing: Timing) => ({
  benchmark: 'api',
  timestamp: new Date().toISOString(),
  machine: machine(),
  settings: { connections: CONNECTIONS, rounds: timing.rounds, sliceS: timing.durationS, warmupS: timing.warmupS, store: 'sqlite (temp file)', plan: 'enterprise' },
  scenarios: scenarios.map((scenario) => ({
    ...scenario,
    rounds: scenario.rounds.map((pair) => ({
      hostRequestsPerSec: pair.host.requestsPerSec,
      bareRequestsPerSec: pair.bare.requestsPerSec,
      hostP99Ms: pair.host.latencyMs.p99,
      bareP99Ms: pair.bare.latencyMs.p99,
    })),
  })),
  goals: judgeGoals(scenarios),
  checks,
});

export const writeResults = (path: string, document: unknown): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
};

const pad = (cells: readonly string[], widths: readonly number[]) =>
  cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');

const row = (scenario: string, target: string, m: Measurement) => [
  scenario, target, m.requestsPerSec.toFixed(0),
  m.latencyMs.p50.toFixed(1), m.latencyMs.p90.toFixed(1), m.latencyMs.p99.toFixed(1), m.latencyMs.max.toFixed(1),
  String(m.non2xx), String(m.errors),
];

/** A fixed-width table; widths follow the longest cell of each column. */
const table = (rows: readonly string[][]): string => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((cells) => cells[i]!.length)));
  return rows.map((cells) => pad(cells, widths)).join('\n');
};

export const printReport = (document: ReturnType<typeof resultsDocument>): void => {
  const header = ['scenario', 'server', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors'];
  const rows = document.scenarios.flatMap((s) => [row(s.route, 'host', s.host), row('', 'bare express', s.bare)]);
  const { machine: m, settings } = document;
  console.log(`\napi benchmark: ${settings.connections} connections, ${settings.rounds} rounds of ${settings.warmupS} s warm-up + ${settings.sliceS} s per server`);
  console.log(`machine: ${m.cpus} cpus (${m.cpuModel}), node ${m.node}, ${m.platform}, load ${m.loadAverage1mAtStart} at start\n`);
  console.log(table([header, ...rows]));
  console.log('');
  for (const s of document.scenarios) {
    const perRound = s.rounds.map((r) => (r.hostRequestsPerSec / r.bareRequestsPerSec).toFixed(2)).join(', ');
    console.log(`ratio host/bare ${s.route}: ${s.ratio.toFixed(2)} (median of rounds: ${perRound})`);
  }
  console.log('\ngoals:');
  for (const goal of document.goals) {
    console.log(`  ${goal.met ? 'met    ' : 'not met'}  ${goal.name} ${goal.target} (measured ${goal.measured})`);
  }
  console.log('\nchecks:');
  for (const check of document.checks) console.log(`  ${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}: ${check.detail}`);
};
