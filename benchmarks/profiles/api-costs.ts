/**
 * What each feature of the API's hot paths costs per request, in µs of the host's CPU: the host
 * runs under `--cpu-prof`, answers a fixed number of `GET /v1/identities/{id}` (one host) and
 * `POST /v1/identities` (another), and the profiles are split by feature (see `cpu-profile.ts`).
 * The host's CPU time over the requests (from /proc, all threads) is split in the proportions the
 * main thread's profile shows. Garbage collection is counted only in the row that says so.
 *
 *   npm run build && node --import=tsx --conditions=@ephemail/source benchmarks/profiles/api-costs.ts
 *   BENCH_COST_REQUESTS=30000 ... (requests per path; default 30,000)
 *   BENCH_COST_PROFILES=<dir> ... (keep the host's profiles there, one folder per path; default: removed)
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { CONNECTIONS } from '../api/load.js';
import { installExitHandlers, stopChild } from '../api/processes.js';
import { createIdentity, startHost } from '../api/targets.js';
import { writeResults } from '../api/report.js';
import { cpuUsedUs, type Feature, featureCosts, file, under } from './cpu-profile.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const CREATE_BODY = JSON.stringify({ label: 'bench', metadata: { source: 'benchmark' } });

/** The features on the API's hot paths and the frames that are theirs. */
export const API_FEATURES: readonly Feature[] = [
  { name: 'web pages and static files', frames: [file('node_modules/serve-static/index.js'), file('hosts/api/dist/web-app.js'), file('hosts/api/dist/consumer-pages.js')] },
  { name: 'request context and metrics', frames: [file('http-express/dist/middleware/request-context.js'), file('http-express/dist/metrics.js'), file('http-express/dist/prom-meter.js'), under('core/dist/metrics/')], leaves: [file('hosts/api/dist/metered-store.js')] },
  { name: 'route dispatch', frames: [/@.*node_modules\/find-my-way\//] },
  { name: 'authentication (API key)', frames: [/^authenticate@.*core\/dist\/auth\/authenticate\.js$/] },
  { name: 'API-call admission and metering', frames: [file('core/dist/billing/api-calls.js')] },
  { name: 'validation', frames: [/^validate@.*http-express\/dist\/pipeline\.js$/] },
  { name: 'idempotency (claim, stored answer)', frames: [file('http-express/dist/middleware/idempotency.js')] },
  { name: 'use case (identity read or creation, its events)', frames: [file('http-express/dist/routes/identities.js'), /@.*core\/dist\/use-cases\/(identities|identity-access|provision-identities)\.js$/] },
  { name: 'of which the event outbox', frames: [file('core/dist/store/outbox.js')] },
  { name: 'store (SQLite), all callers', frames: [/@.*store-sqlite\/dist\//] },
  { name: 'JSON answer, written to the socket', frames: [/^sendJson@/] },
  { name: 'garbage collection', frames: [/^\(garbage collector\)@/] },
];

const requests = (() => {
  const raw = process.env.BENCH_COST_REQUESTS;
  const n = raw === undefined || raw === '' ? 30_000 : Number(raw);
  if (!Number.isInteger(n) || n < 1000) throw new Error(`BENCH_COST_REQUESTS must be a whole number >= 1000, got "${raw}"`);
  return n;
})();

/** Runs one host under the profiler for `amount` requests of one kind; answers its main thread's profile. */
const profiled = async (kind: 'get' | 'post'): Promise<{ profile: string; non2xx: number; cpuUs: number }> => {
  const keep = process.env.BENCH_COST_PROFILES;
  const dir = keep === undefined || keep === '' ? mkdtempSync(join(tmpdir(), 'ephemail-cost-')) : resolve(keep, kind);
  process.env.BENCH_API_CPU_PROF = dir;
  const host = await startHost(root);
  const identity = await createIdentity(host, CREATE_BODY);
  const post = kind === 'post';
  const cpuBefore = cpuUsedUs(host.child.process.pid!);
  const result = await autocannon({
    url: `${host.base}/v1/identities${post ? '' : `/${identity.id}`}`,
    method: post ? 'POST' : 'GET',
    headers: post ? { ...host.headers, 'content-type': 'application/json', 'idempotency-key': 'cost-[<id>]' } : host.headers,
    body: post ? CREATE_BODY : undefined,
    idReplacement: post,
    connections: CONNECTIONS,
    amount: requests,
  });
  const cpuUs = cpuUsedUs(host.child.process.pid!) - cpuBefore;
  await stopChild(host.child, 10_000);
  host.removeDatabase();
  // Thread 0 is the host's main thread, where HTTP requests run.
  const main = readdirSync(dir).find((name) => /\.0\.\d+\.cpuprofile$/.test(name));
  if (main === undefined) throw new Error(`the host wrote no profile into ${dir}`);
  return { profile: join(dir, main), non2xx: result.non2xx + result.errors, cpuUs };
};

const main = async () => {
  installExitHandlers(() => undefined);
  const rows: Record<string, { get: number; post: number }> = {};
  const cpu = { get: 0, post: 0 };
  for (const kind of ['get', 'post'] as const) {
    const { profile, non2xx, cpuUs } = await profiled(kind);
    if (non2xx > 0) throw new Error(`${kind}: ${non2xx} requests failed; the figures would not be sound`);
    const costs = featureCosts(profile, API_FEATURES);
    if (!process.env.BENCH_COST_PROFILES) rmSync(resolve(profile, '..'), { recursive: true, force: true });
    cpu[kind] = cpuUs / requests;
    // The profile says which share of the thread's busy time each feature took; the process's
    // CPU time says how much time that is (a profile also counts time spent waiting for a core).
    for (const feature of API_FEATURES) (rows[feature.name] ??= { get: 0, post: 0 })[kind] = (costs.features[feature.name]! / costs.busyUs) * cpu[kind];
  }
  const us = (n: number) => n.toFixed(1).padStart(8);
  console.log(`\nhost CPU per request (µs), ${requests} requests per path at ${CONNECTIONS} connections\n`);
  console.log(`${'feature'.padEnd(52)}${'GET'.padStart(8)}${'POST'.padStart(8)}`);
  console.log(`${'host process, all threads (CPU time from /proc)'.padEnd(52)}${us(cpu.get)}${us(cpu.post)}`);
  for (const [name, row] of Object.entries(rows)) console.log(`${name.padEnd(52)}${us(row.get)}${us(row.post)}`);
  writeResults(join(root, 'benchmarks/results/api-costs.json'), {
    benchmark: 'api-costs',
    timestamp: new Date().toISOString(),
    requestsPerPath: requests,
    connections: CONNECTIONS,
    unit: 'µs of host CPU per request',
    hostCpu: cpu,
    features: rows,
  });
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
