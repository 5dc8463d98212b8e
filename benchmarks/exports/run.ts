/**
 * Exports benchmark: 1,000,000 events in a SQLite file, exported to CSV and to JSON through the
 * real export job (claim, count, keyset pages of 250 from the store, row views, csv-stringify,
 * the fs export storage with fsync, progress and lease writes). Reported: rows/s, next to a bare
 * better-sqlite3 iterate-and-write loop over the same rows writing the same bytes (checked by
 * SHA-256) in the same run, and the ratio job/bare (goal >= 0.5); peak RSS of an export of 10 %
 * of the rows against one of all of them (goal: within 10 %, memory flat with size).
 *
 * Every measurement runs in a process of its own (its peak RSS is its own); job and bare take
 * turns, in rounds; figures are the medians of the rounds'. Timings are reported, never
 * asserted; the run fails only when the job's file differs from the bare loop's.
 *
 *   node --import=tsx --conditions=@ephemail/source benchmarks/exports/run.ts
 *   EXPORT_BENCH_ROWS=100000 ... (a quick run; default 1,000,000)   BENCH_ROUNDS=<n> (default 3)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { occurredAt } from './events.js';
import { seed } from './seed.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const RESULTS = join(root, 'benchmarks/results/exports.json');
const ROWS = Number(process.env.EXPORT_BENCH_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Even, so the last row of the small range does not split a pair of events of one instant.
const SMALL = Math.max(2, Math.floor(ROWS / 20) * 2);
const RATIO_GOAL = 0.5;
const RSS_TOLERANCE = 0.1;

interface Measurement {
  readonly mode: 'job' | 'bare';
  readonly format: 'csv' | 'json';
  readonly rows: number;
  readonly seconds: number;
  readonly rssBefore: number;
  readonly rssPeak: number;
  readonly bytes: number;
  readonly sha256: string;
}

if (!Number.isInteger(ROWS) || ROWS < 20 || ROWS > 1_500_000) throw new Error('EXPORT_BENCH_ROWS must be 20..1,500,000 (90 days of the benchmark\'s events)');
const dir = mkdtempSync(join(tmpdir(), 'ephemail-bench-exports-'));
const db = join(dir, 'bench.sqlite');

const measure = (mode: 'job' | 'bare', format: 'csv' | 'json', rows: number): Measurement => {
  const args = ['--import=tsx', '--conditions=@ephemail/source', join(root, 'benchmarks/exports/measure.ts'), mode, format, db, join(dir, `out-${mode}`), occurredAt(rows - 1)];
  const child = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`${mode} ${format}: ${child.stderr}`);
  const result = JSON.parse(child.stdout.trim().split('\n').pop()!) as Measurement;
  if (result.rows !== rows) throw new Error(`${mode} ${format}: ${result.rows} rows, expected ${rows}`);
  rmSync(join(dir, `out-${mode}`), { recursive: true, force: true });
  return result;
};

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const perSec = (m: Measurement): number => Math.round(m.rows / m.seconds);
const mib = (bytes: number): number => Number((bytes / 1_048_576).toFixed(1));

const seedSeconds = await seed(db, ROWS);
console.log(`seeded ${ROWS.toLocaleString('en')} events in ${seedSeconds.toFixed(1)} s (store insertAll, batches of 5,000)`);

/** One format: job and bare over every row, and the job over the small range, in each round. */
const runFormat = (format: 'csv' | 'json') => {
  const rounds: { job: Measurement; bare: Measurement; small: Measurement }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate who goes first, so neither always meets a cold page cache.
    const first = round % 2 === 0 ? 'job' : 'bare';
    const a = measure(first, format, ROWS);
    const b = measure(first === 'job' ? 'bare' : 'job', format, ROWS);
    const small = measure('job', format, SMALL);
    rounds.push(first === 'job' ? { job: a, bare: b, small } : { job: b, bare: a, small });
  }
  return rounds;
};

const summary = (format: 'csv' | 'json', rounds: ReturnType<typeof runFormat>) => {
  const same = rounds.every((r) => r.job.sha256 === r.bare.sha256);
  const ratio = median(rounds.map((r) => perSec(r.job) / perSec(r.bare)));
  const peakSmall = median(rounds.map((r) => r.small.rssPeak));
  const peakAll = median(rounds.map((r) => r.job.rssPeak));
  const rssRatio = peakAll / peakSmall;
  return {
    rows: ROWS,
    bytes: rounds[0]!.job.bytes,
    sameBytesAsBare: same,
    jobRowsPerSec: Math.round(median(rounds.map((r) => perSec(r.job)))),
    bareRowsPerSec: Math.round(median(rounds.map((r) => perSec(r.bare)))),
    ratio: Number(ratio.toFixed(3)),
    rounds: rounds.map((r) => ({
      jobSeconds: Number(r.job.seconds.toFixed(2)),
      bareSeconds: Number(r.bare.seconds.toFixed(2)),
      jobPeakMiB: mib(r.job.rssPeak),
      smallPeakMiB: mib(r.small.rssPeak),
    })),
    rss: {
      smallRows: SMALL,
      smallPeakMiB: mib(peakSmall),
      allPeakMiB: mib(peakAll),
      smallGrowthMiB: mib(median(rounds.map((r) => r.small.rssPeak - r.small.rssBefore))),
      allGrowthMiB: mib(median(rounds.map((r) => r.job.rssPeak - r.job.rssBefore))),
      bareAllPeakMiB: mib(median(rounds.map((r) => r.bare.rssPeak))),
      peakRatio: Number(rssRatio.toFixed(3)),
    },
    goals: { ratioAtLeast: RATIO_GOAL, ratioMet: ratio >= RATIO_GOAL, rssWithin: RSS_TOLERANCE, rssMet: Math.abs(rssRatio - 1) <= RSS_TOLERANCE },
  };
};

const formats = {} as Record<'csv' | 'json', ReturnType<typeof summary>>;
for (const format of ['csv', 'json'] as const) {
  const f = summary(format, runFormat(format));
  formats[format] = f;
  console.log(`${format}: job ${f.jobRowsPerSec.toLocaleString('en')} rows/s, bare loop ${f.bareRowsPerSec.toLocaleString('en')} rows/s, ratio ${f.ratio.toFixed(2)} (goal >= ${RATIO_GOAL}: ${f.goals.ratioMet ? 'met' : 'NOT met'}); same bytes as the bare loop: ${f.sameBytesAsBare}`);
  console.log(`${format}: peak RSS ${f.rss.smallPeakMiB} MiB at ${SMALL.toLocaleString('en')} rows, ${f.rss.allPeakMiB} MiB at ${ROWS.toLocaleString('en')} (x${f.rss.peakRatio}; goal within ${RSS_TOLERANCE * 100} %: ${f.goals.rssMet ? 'met' : 'NOT met'}); bare loop ${f.rss.bareAllPeakMiB} MiB`);
}
const sound = formats.csv.sameBytesAsBare && formats.json.sameBytesAsBare;

const result = {
  benchmark: 'exports',
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadavg: loadavg().map((l) => Number(l.toFixed(2))) },
  rows: ROWS,
  rounds: ROUNDS,
  seedSeconds: Number(seedSeconds.toFixed(1)),
  baseline: 'better-sqlite3 iterate over the same rows, same output bytes, synchronous writes every 1,000 rows, fsync',
  ...formats,
};
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
rmSync(dir, { recursive: true, force: true });
if (!sound) {
  console.error('the export job wrote other bytes than the bare loop: the comparison is void');
  process.exitCode = 1;
}
