/**
 * Store micro-benchmark, in process: the storage primitives one at a time (each awaited before the
 * next, as a request awaits them), on identity-shaped documents in the real `identities` collection
 * with core's own index specs. Fixed iteration counts, the same seeded operations on every store.
 */
import type { DocumentStore } from '@ephemail/core';
import { COLLECTIONS } from '@ephemail/core';
import { performance } from 'node:perf_hooks';
import { round } from './stats.js';
import { activated, countQuery, identityDoc, listQuery, PROJECTS, seededRandom } from './store-docs.js';
import type { OpenedStore } from './stores.js';

/** Inserts come first and make the data set the other operations run against. */
export const ITERATIONS = { insert: 5_000, get: 5_000, replace: 2_000, find: 500, count: 500 } as const;
export type Operation = keyof typeof ITERATIONS;
export const OPERATIONS = Object.keys(ITERATIONS) as Operation[];

const COLLECTION = 'identities';
const SEED = 6;

export interface OperationResult {
  readonly iterations: number;
  readonly seconds: number;
  readonly opsPerSec: number;
  readonly meanUs: number;
}

export type StoreResult =
  | { readonly name: string; readonly status: 'measured'; readonly detail: string; readonly operations: Record<Operation, OperationResult>; readonly problems: readonly string[] }
  | { readonly name: string; readonly status: 'skipped'; readonly reason: string }
  | { readonly name: string; readonly status: 'failed'; readonly error: string };

/** Runs `op` `n` times in sequence; `op` answers false when the store answered something wrong. */
const timed = async (n: number, op: (i: number) => Promise<boolean>, problems: string[], label: string): Promise<OperationResult> => {
  let wrong = 0;
  const started = performance.now();
  for (let i = 0; i < n; i += 1) if (!(await op(i))) wrong += 1;
  const seconds = (performance.now() - started) / 1000;
  if (wrong > 0) problems.push(`${label}: ${wrong} of ${n} answers were not the expected ones`);
  return { iterations: n, seconds: round(seconds, 3), opsPerSec: round(n / seconds, 0), meanUs: round((seconds / n) * 1e6, 1) };
};

/** Indexes drawn before timing, so the generator's cost is not measured. */
const picks = (count: number, below: number, random: () => number): number[] =>
  Array.from({ length: count }, () => Math.floor(random() * below));

const readOps = async (store: DocumentStore, ids: readonly string[], random: () => number, problems: string[]) => {
  const getPicks = picks(ITERATIONS.get, ids.length, random);
  const get = await timed(ITERATIONS.get, async (i) => (await store.get(COLLECTION, ids[getPicks[i]!]!)) !== undefined, problems, 'get');
  // Cutoffs in the first 80 % keep at least a few hundred candidates per project behind each query.
  const cutoffs = picks(ITERATIONS.find, Math.floor(ids.length * 0.8), random);
  const find = await timed(ITERATIONS.find, async (i) => {
    const found = await store.find(COLLECTION, listQuery(PROJECTS[i % PROJECTS.length]!, cutoffs[i]!));
    return found.length > 0 && found.length <= 50;
  }, problems, 'find');
  const count = await timed(ITERATIONS.count, async (i) =>
    (await store.count(COLLECTION, countQuery(PROJECTS[i % PROJECTS.length]!, cutoffs[i]!))) > 0, problems, 'count');
  return { get, find, count };
};

const measure = async (store: DocumentStore, problems: string[]): Promise<Record<Operation, OperationResult>> => {
  await store.init(COLLECTIONS);
  const random = seededRandom(SEED);
  const docs = Array.from({ length: ITERATIONS.insert }, (_, i) => identityDoc(i));
  const insert = await timed(ITERATIONS.insert, async (i) => (await store.insert(COLLECTION, docs[i]!)) === 'inserted', problems, 'insert');
  // Compare-and-set with the version this process last wrote, as a read-modify-write would.
  const versions = docs.map(() => 1);
  const replacePicks = picks(ITERATIONS.replace, docs.length, random);
  const replace = await timed(ITERATIONS.replace, async (i) => {
    const at = replacePicks[i]!;
    const ok = await store.replace(COLLECTION, activated(docs[at]!, i), versions[at]!);
    if (ok) versions[at]! += 1;
    return ok;
  }, problems, 'replace');
  const reads = await readOps(store, docs.map((doc) => doc.id), random, problems);
  return { insert, get: reads.get, replace, find: reads.find, count: reads.count };
};

/** Measures one opened store and disposes of it, whatever happens. */
export const benchmarkStore = async (opened: OpenedStore): Promise<StoreResult> => {
  const problems: string[] = [];
  try {
    // The figures only mean something for a collection core really declares, with its indexes.
    if (!COLLECTIONS.some((spec) => spec.name === COLLECTION)) throw new Error(`core declares no "${COLLECTION}" collection`);
    const operations = await measure(opened.store, problems);
    return { name: opened.name, status: 'measured', detail: opened.detail, operations, problems };
  } catch (error) {
    return { name: opened.name, status: 'failed', error: error instanceof Error ? error.message : String(error) };
  } finally {
    await opened.dispose().catch(() => undefined);
  }
};
