/** The results document of the scale benchmark: machine facts, every figure, the ratios and the checks. */
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';
import type { Check } from '../api/report.js';
import type { CreationRun } from './creation.js';
import { TOTAL_CONNECTIONS } from './creation.js';
import type { IngestRun } from './ingest.js';
import type { Settings } from './settings.js';
import { ratio } from './stats.js';
import type { Operation, StoreResult } from './store-bench.js';
import { ITERATIONS, OPERATIONS } from './store-bench.js';

/** Taken when the module loads, i.e. before any work: other load on the machine skews every figure. */
const loadAtStart = loadavg().map((value) => Number(value.toFixed(2)));

const machine = () => ({
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
  memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
  node: process.version,
  platform: `${platform()}-${arch()}`,
  loadAverageAtStart: { '1m': loadAtStart[0] ?? 0, '5m': loadAtStart[1] ?? 0, '15m': loadAtStart[2] ?? 0 },
});

export interface Parts {
  readonly creation: readonly [CreationRun, CreationRun];
  readonly ingest: readonly [IngestRun, IngestRun];
  readonly stores: readonly StoreResult[];
}

const opsOf = (stores: readonly StoreResult[], name: string, op: Operation): number | undefined => {
  const found = stores.find((store) => store.name === name);
  return found?.status === 'measured' ? found.operations[op].opsPerSec : undefined;
};

/** Per operation, the named store's ops/s over memory's. */
const storeRatios = (stores: readonly StoreResult[], name: string): Record<Operation, number | null> =>
  Object.fromEntries(OPERATIONS.map((op) => [op, ratio(opsOf(stores, name, op), opsOf(stores, 'memory', op))])) as Record<Operation, number | null>;

const mongoRatios = (stores: readonly StoreResult[]): Record<Operation, number | null> | 'skipped' =>
  stores.some((store) => store.name === 'mongodb' && store.status === 'measured') ? storeRatios(stores, 'mongodb') : 'skipped';

const storeChecks = (stores: readonly StoreResult[]): Check[] =>
  stores.map((store) => {
    if (store.status === 'skipped') return { name: `store ${store.name}`, ok: true, detail: `skipped: ${store.reason}` };
    if (store.status === 'failed') return { name: `store ${store.name}`, ok: false, detail: `failed: ${store.error}` };
    return { name: `store ${store.name}: every answer as expected`, ok: store.problems.length === 0, detail: store.problems.join('; ') || 'all answers as expected' };
  });

/** Each part's checks go to the one list at the end of the document. */
const withoutChecks = <T extends { readonly checks: readonly Check[] }>({ checks: _checks, ...rest }: T): Omit<T, 'checks'> => rest;

export const resultsDocument = (settings: Settings, parts: Parts) => {
  const [createOne, createTwo] = parts.creation;
  const [ingestOne, ingestTwo] = parts.ingest;
  return {
    benchmark: 'scale',
    timestamp: new Date().toISOString(),
    machine: machine(),
    settings: {
      store: 'sqlite (one temp file per cluster, shared by its hosts)',
      plan: 'enterprise',
      creation: { connections: TOTAL_CONNECTIONS, durationS: settings.durationS, warmupS: settings.warmupS },
      ingest: { messages: settings.messages, warmupMessages: settings.warmupMessages, sizeBytes: ingestOne.payloadBytes, sessionsPerHost: ingestOne.sessionsPerHost, reusedConnections: true },
      storeIterations: ITERATIONS,
    },
    identityCreation: { oneHost: withoutChecks(createOne), twoHosts: withoutChecks(createTwo), ratioTwoOverOne: ratio(createTwo.requestsPerSec, createOne.requestsPerSec) },
    mailIngest: { oneHost: withoutChecks(ingestOne), twoHosts: withoutChecks(ingestTwo), ratioTwoOverOne: ratio(ingestTwo.messagesPerSec, ingestOne.messagesPerSec) },
    store: {
      stores: parts.stores,
      sqliteOverMemory: storeRatios(parts.stores, 'sqlite'),
      mongodbOverMemory: mongoRatios(parts.stores),
    },
    checks: [...createOne.checks, ...createTwo.checks, ...ingestOne.checks, ...ingestTwo.checks, ...storeChecks(parts.stores)],
  };
};

export type ResultsDocument = ReturnType<typeof resultsDocument>;
