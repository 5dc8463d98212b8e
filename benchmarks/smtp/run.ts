/**
 * SMTP ingest benchmark. Postfix's smtp-source (20 sessions) sends 4 KiB and 50 KiB messages,
 * one per connection and over reused connections, to four servers in turn, each started fresh
 * for each run: the reference host (SMTP accept -> stored -> extraction visible, on SQLite),
 * a bare smtp-server that discards the data, one that parses it with the host's parser, and
 * MailDev. Then the host's delivery-to-API latency and, when asked, a long memory soak.
 * Prints a table and writes benchmarks/results/smtp.json. Timings are only reported; the run
 * fails only when the measurement is unsound (a message refused or lost, a server crashed).
 *
 *   npm run build && node --import=tsx --conditions=@ephemail/source benchmarks/smtp/run.ts
 *   BENCH_SMTP_MESSAGES=20000  messages per run          BENCH_SMTP_LATENCY_MESSAGES=1000
 *   BENCH_SMTP_SOAK=100000     host soak (default off)    BENCH_SMTP_TARGETS=host,parse,discard,maildev
 *   BENCH_SMTP_CPU_PROF=<dir>  write a CPU profile of every host process into <dir>
 *   BENCH_SMTP_ROUNDS=3        host / parse-only pairs per size and pattern (default 3)
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installExitHandlers, stopAll } from '../api/processes.js';
import { writeResults } from '../api/report.js';
import type { CellResult, CellSpec } from './cell.js';
import { patternName, runCell } from './cell.js';
import type { LatencyResult } from './latency.js';
import { measureLatency } from './latency.js';
import { printReport } from './print.js';
import type { Settings } from './report.js';
import { resultsDocument } from './report.js';
import { killSource } from './source.js';
import type { TargetKey } from './targets.js';
import { PAIRED, removeTempDirs, startHost, TARGET_KEYS, TARGET_NAMES } from './targets.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const RESULTS = join(root, 'benchmarks/results/smtp.json');
const SIZES_KIB = [4, 50] as const;

const positiveInt = (name: string, fallback: number | null): number | null => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
};

const targetsFromEnv = (): TargetKey[] => {
  const raw = process.env.BENCH_SMTP_TARGETS;
  if (raw === undefined || raw === '') return [...TARGET_KEYS];
  const picked = raw.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = picked.filter((name) => !(TARGET_KEYS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`BENCH_SMTP_TARGETS names unknown targets: ${unknown.join(', ')} (known: ${TARGET_KEYS.join(', ')})`);
  return TARGET_KEYS.filter((key) => picked.includes(key));
};

const settingsFromEnv = (): Settings => {
  const messages = positiveInt('BENCH_SMTP_MESSAGES', 20_000)!;
  return {
    messages,
    // Enough to get the JIT and the store going; small next to the measured run.
    warmup: Math.min(500, Math.max(20, Math.round(messages / 40))),
    sizesKiB: SIZES_KIB,
    latencyMessages: positiveInt('BENCH_SMTP_LATENCY_MESSAGES', 1000)!,
    soakMessages: positiveInt('BENCH_SMTP_SOAK', null),
    targets: targetsFromEnv(),
    rounds: positiveInt('BENCH_SMTP_ROUNDS', 3)!,
  };
};

const hostNodeArgs = (): string[] => {
  const dir = process.env.BENCH_SMTP_CPU_PROF;
  return dir === undefined || dir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${resolve(dir)}`];
};

/**
 * Every target for one size and pattern back to back, so a change in machine load hits them
 * alike. The host and the parse-only server, whose ratio is a goal, take turns `rounds` times
 * (host first in even rounds, parse-only first in odd ones), each time on a fresh server with the
 * full number of messages; the goal is judged on the median of the rounds' ratios. This machine's
 * speed moves by a fifth within minutes, and one pair run back to back sees one load. The other
 * baselines run once, after the first pair.
 */
const matrix = (settings: Settings): CellSpec[] => {
  const paired = PAIRED.filter((key) => settings.targets.includes(key));
  const others = settings.targets.filter((key) => !paired.includes(key));
  const rounds = paired.length === PAIRED.length ? settings.rounds : 1;
  return [true, false].flatMap((reuse) =>
    settings.sizesKiB.flatMap((sizeKiB) =>
      Array.from({ length: rounds }, (_, round) => [
        ...(round % 2 === 0 ? paired : [...paired].reverse()).map((target) => ({ target, round })),
        ...(round === 0 ? others.map((target) => ({ target, round })) : []),
      ])
        .flat()
        .map(({ target, round }) => ({ target, sizeKiB, reuse, messages: settings.messages, warmup: settings.warmup, round })),
    ),
  );
};

const runMatrix = async (specs: readonly CellSpec[]): Promise<CellResult[]> => {
  const cells: CellResult[] = [];
  for (const [i, spec] of specs.entries()) {
    console.log(`[${i + 1}/${specs.length}] ${TARGET_NAMES[spec.target]}, ${spec.sizeKiB} KiB, ${patternName(spec.reuse)}, round ${spec.round + 1}`);
    const cell = await runCell(root, spec, hostNodeArgs());
    const rate = cell.run === undefined ? 'warm-up failed' : `${cell.run.messagesPerSec.toFixed(0)} msg/s in ${(cell.run.wallMs / 1000).toFixed(1)} s`;
    console.log(`    ${rate}${cell.rss === undefined ? '' : `, RSS ${cell.rss.atTenPercentMiB} -> ${cell.rss.afterMiB} MiB`}`);
    cells.push(cell);
  }
  return cells;
};

const runLatency = async (settings: Settings): Promise<LatencyResult> => {
  console.log(`latency: ${settings.latencyMessages} messages to the host, one at a time`);
  const host = await startHost(root, hostNodeArgs());
  try {
    return await measureLatency(host.api!, host.smtpPort, settings.latencyMessages, (done) => console.log(`    ${done}/${settings.latencyMessages}`));
  } catch (error) {
    // Say whether the host itself went down, and what it last wrote, before the run stops.
    const { exitCode, signalCode } = host.child.process;
    console.error(`latency run failed; host ${exitCode === null && signalCode === null ? 'still running' : `exited (${exitCode ?? signalCode})`}:\n${host.child.tail()}`);
    throw error;
  } finally {
    await host.stop();
  }
};

const runSoak = async (messages: number): Promise<CellResult> => {
  console.log(`soak: ${messages} messages of 4 KiB to the host over reused connections`);
  return runCell(root, { target: 'host', sizeKiB: 4, reuse: true, messages, warmup: 500, round: 0 }, hostNodeArgs());
};

const main = async (): Promise<number> => {
  const settings = settingsFromEnv();
  installExitHandlers(() => {
    killSource();
    removeTempDirs();
  });
  const latency = settings.targets.includes('host') ? await runLatency(settings) : undefined;
  const cells = await runMatrix(matrix(settings));
  if (settings.soakMessages === null) console.log('soak: off (BENCH_SMTP_SOAK=100000 runs the 100,000-message soak)');
  const soak = settings.soakMessages === null || !settings.targets.includes('host') ? undefined : await runSoak(settings.soakMessages);
  const document = resultsDocument(cells, settings, latency, soak);
  printReport(document);
  writeResults(RESULTS, document);
  console.log('\nresults written to benchmarks/results/smtp.json');
  return document.checks.every((check) => check.ok) ? 0 : 1;
};

main().then(
  (code) => {
    if (code !== 0) console.error('\nthe measurement is not sound (see the failed checks above)');
    process.exitCode = code;
  },
  async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    killSource();
    await stopAll();
    removeTempDirs();
    process.exit(1);
  },
);
