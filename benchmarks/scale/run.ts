/**
 * Scale benchmark: how the reference host behaves when a second host process shares its SQLite
 * file, and what the storage primitives cost on each store.
 *
 * 1. Identity creation (POST /v1/identities, 50 connections) through one host, then through two
 *    hosts over one file (25 connections each, at once); rates summed, ratio two/one.
 * 2. Mail ingest with smtp-source (4 KiB, 20 reused sessions per host) through one host, then two
 *    (half the messages each, at once); every message checked stored; ratio two/one.
 * 3. Store micro-benchmark in process: get, insert, replace, find, count on memory, SQLite and,
 *    when MONGODB_URL is set, MongoDB.
 *
 * Prints tables and writes benchmarks/results/scale.json. Timings are only reported; the run fails
 * only when a measurement is unsound (a non-2xx answer, a refused or lost message, a wrong answer).
 *
 *   npm run build && node --import=tsx --conditions=@ephemail/source benchmarks/scale/run.ts
 *   BENCH_SCALE_DURATION=8    seconds per measured creation phase (BENCH_DURATION also works)
 *   BENCH_SCALE_MESSAGES=5000 messages per ingest run
 *   MONGODB_URL=mongodb://…   adds MongoDB to the store micro-benchmark
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installExitHandlers, stopAll } from '../api/processes.js';
import { writeResults } from '../api/report.js';
import { removeClusterDirs } from './cluster.js';
import type { CreationRun } from './creation.js';
import { measureCreation } from './creation.js';
import type { IngestRun } from './ingest.js';
import { measureIngest } from './ingest.js';
import { printReport } from './print.js';
import { resultsDocument } from './report.js';
import type { Settings } from './settings.js';
import { settingsFromEnv } from './settings.js';
import { killSources } from './sources.js';
import type { StoreResult } from './store-bench.js';
import { benchmarkStore } from './store-bench.js';
import type { OpenedStore } from './stores.js';
import { openMemory, openMongo, openSqlite, removeStoreScratch } from './stores.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const RESULTS = join(root, 'benchmarks/results/scale.json');

const cleanup = () => {
  killSources();
  removeClusterDirs();
  removeStoreScratch();
};

const creationRuns = async (settings: Settings): Promise<[CreationRun, CreationRun]> => {
  const runs: CreationRun[] = [];
  for (const hosts of [1, 2]) {
    console.log(`identity creation through ${hosts} host${hosts > 1 ? 's' : ''}: ${settings.warmupS} s warm-up + ${settings.durationS} s...`);
    const run = await measureCreation(root, hosts, settings.durationS, settings.warmupS);
    console.log(`    ${run.requestsPerSec.toFixed(0)} req/s, p99 ${run.latencyMs.p99.toFixed(1)} ms, non-2xx ${run.non2xx}`);
    runs.push(run);
  }
  return [runs[0]!, runs[1]!];
};

const ingestRuns = async (settings: Settings): Promise<[IngestRun, IngestRun]> => {
  const runs: IngestRun[] = [];
  for (const hosts of [1, 2]) {
    console.log(`mail ingest through ${hosts} host${hosts > 1 ? 's' : ''}: ${settings.messages} messages (+${settings.warmupMessages} warm-up)...`);
    const run = await measureIngest(root, hosts, settings.messages, settings.warmupMessages);
    console.log(`    ${run.messagesPerSec.toFixed(0)} msg/s in ${run.wallS.toFixed(1)} s, ${run.stored}/${run.messages} stored`);
    runs.push(run);
  }
  return [runs[0]!, runs[1]!];
};

/** Opening a store can fail too (an unreachable MongoDB): that is recorded, not thrown. */
const measureOne = async (name: string, open: () => OpenedStore): Promise<StoreResult> => {
  console.log(`store micro-benchmark: ${name}...`);
  let opened: OpenedStore;
  try {
    opened = open();
  } catch (error) {
    return { name, status: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
  if (name === 'mongodb') console.log(`    using ${opened.detail}`);
  return benchmarkStore(opened);
};

const storeRuns = async (settings: Settings): Promise<StoreResult[]> => {
  const results = [await measureOne('memory', openMemory), await measureOne('sqlite', openSqlite)];
  const url = settings.mongodbUrl;
  if (url === undefined) {
    console.log('store micro-benchmark: mongodb skipped: set MONGODB_URL to include it');
    return [...results, { name: 'mongodb', status: 'skipped', reason: 'set MONGODB_URL to include it' }];
  }
  return [...results, await measureOne('mongodb', () => openMongo(url))];
};

const main = async (): Promise<number> => {
  const settings = settingsFromEnv();
  installExitHandlers(cleanup);
  // The in-process part first, while no host is running beside it.
  const stores = await storeRuns(settings);
  const creation = await creationRuns(settings);
  const ingest = await ingestRuns(settings);
  const document = resultsDocument(settings, { creation, ingest, stores });
  printReport(document);
  writeResults(RESULTS, document);
  console.log('\nresults written to benchmarks/results/scale.json');
  return document.checks.every((check) => check.ok) ? 0 : 1;
};

main().then(
  (code) => {
    if (code !== 0) console.error('\nthe measurement is not sound (see the failed checks above)');
    process.exitCode = code;
  },
  async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    killSources();
    await stopAll();
    cleanup();
    process.exit(1);
  },
);
