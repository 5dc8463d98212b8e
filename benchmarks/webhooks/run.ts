/**
 * Webhook delivery benchmark: events recorded at a fixed offered rate (200/s for ~10 s) reach a
 * local receiver through the whole path — event log, webhook relay, leased delivery jobs on
 * SQLite, signing, the guarded client — with 1 and with 50 endpoints. Reported: deliveries and
 * events per second, and the latency from the event being recorded to the receiver's 2xx. The
 * baseline, measured in the same run, is a bare keep-alive `http.request` loop posting the same
 * number of signed payloads to the same receiver. Timings are reported, never asserted.
 *
 * The workers run as a host would: the relay and delivery ticks on 50 ms timers, woken early by
 * in-process news (an event logged wakes the relay, an enqueued job the delivery loops), relay
 * ticks at least 10 ms apart. Recording, relaying and delivering share one process (one core);
 * the receiver has its own. Other load on the machine moves every figure: the load average at the
 * start is in the results file.
 *
 *   node --import=tsx --conditions=@ephemail/source benchmarks/webhooks/run.ts
 *   BENCH_DURATION=5 ... (seconds of offered load per phase; default 10)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBaseline } from './baseline.js';
import { runWebhooks } from './pipeline.js';
import { startReceiver } from './receiver-process.js';
import { calibrateStoreWrites } from './store-calibration.js';
import type { LatencySummary } from './stats.js';
import { summarize } from './stats.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const RESULTS = join(root, 'benchmarks/results/webhooks.json');
const RATE = 200;
const P99_TARGET_MS = 100;
const durationS = Number(process.env.BENCH_DURATION ?? 10);
if (!Number.isFinite(durationS) || durationS <= 0) throw new Error(`BENCH_DURATION must be a positive number of seconds, got "${process.env.BENCH_DURATION}"`);
const settings = { rate: RATE, durationMs: durationS * 1000, loops: 2, concurrency: 32, pollMs: 50, dispatchSpacingMs: 10, maxSockets: 64, drainTimeoutMs: 60_000 };

interface Side {
  readonly events: number;
  readonly expected: number;
  readonly delivered: number;
  readonly deliveriesPerSec: number;
  readonly eventsPerSec: number;
  readonly latencyMs: LatencySummary;
  readonly invalidSignatures: number;
}

const side = (run: { events: number; expected: number; startedAt: number; taken: { latencies: number[]; invalid: number; lastAt: number } }, endpoints: number): Side => {
  const seconds = Math.max(0.001, (run.taken.lastAt - run.startedAt) / 1000);
  const delivered = run.taken.latencies.length;
  return {
    events: run.events,
    expected: run.expected,
    delivered,
    deliveriesPerSec: Number((delivered / seconds).toFixed(1)),
    eventsPerSec: Number((delivered / endpoints / seconds).toFixed(1)),
    latencyMs: summarize(run.taken.latencies),
    invalidSignatures: run.taken.invalid,
  };
};

const scenario = async (endpoints: number) => {
  const receiver = await startReceiver();
  try {
    console.log(`${endpoints} endpoint(s): baseline (bare http.request loop)...`);
    const baseline = side(await runBaseline(receiver, { ...settings, endpoints }), endpoints);
    console.log(`${endpoints} endpoint(s): webhooks (relay, leased jobs on SQLite, guarded client)...`);
    const run = await runWebhooks(receiver, { ...settings, endpoints });
    const webhooks = { ...side(run, endpoints), recordedEventsPerSec: run.recordedEventsPerSec, jobStates: run.states, stagesMs: run.stages };
    const ratio = {
      deliveriesPerSec: Number((webhooks.deliveriesPerSec / Math.max(0.001, baseline.deliveriesPerSec)).toFixed(3)),
      p99: Number((webhooks.latencyMs.p99 / Math.max(0.1, baseline.latencyMs.p99)).toFixed(2)),
    };
    return { endpoints, offeredEventsPerSec: RATE, webhooks, baseline, ratio, p99TargetMet: webhooks.latencyMs.p99 < P99_TARGET_MS && webhooks.delivered === webhooks.expected };
  } finally {
    await receiver.stop();
  }
};

const row = (name: string, s: Side) =>
  `${name.padEnd(10)} ${`${s.delivered}/${s.expected}`.padStart(13)} ${String(s.deliveriesPerSec).padStart(10)} ${String(s.eventsPerSec).padStart(9)} ${String(s.latencyMs.p50).padStart(7)} ${String(s.latencyMs.p90).padStart(7)} ${String(s.latencyMs.p99).padStart(7)} ${String(s.latencyMs.max).padStart(8)}`;

const main = async () => {
  const load = loadavg()[0] ?? 0;
  const storeWrites = await calibrateStoreWrites();
  console.log(`store: one SQLite write takes ${storeWrites.writeMs} ms here; at 3 writes per delivery that caps deliveries at ~${storeWrites.jobsPerSecCeiling}/s`);
  const results = [];
  const counts = (process.env.BENCH_ENDPOINTS ?? '1,50').split(',').map(Number);
  for (const endpoints of counts) results.push(await scenario(endpoints));
  console.log(`\noffered ${RATE} events/s for ${durationS} s; latency = event recorded -> receiver's 2xx (ms)`);
  console.log(`${'path'.padEnd(10)} ${'delivered'.padStart(13)} ${'deliv/s'.padStart(10)} ${'events/s'.padStart(9)} ${'p50'.padStart(7)} ${'p90'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(8)}`);
  for (const r of results) {
    console.log(`-- ${r.endpoints} endpoint(s)`);
    console.log(row('webhooks', r.webhooks));
    console.log(row('baseline', r.baseline));
    console.log(`ratio webhooks/baseline: deliveries/s ${r.ratio.deliveriesPerSec}, p99 ${r.ratio.p99}x; events recorded at ${r.webhooks.recordedEventsPerSec}/s; invalid signatures ${r.webhooks.invalidSignatures}; jobs ${JSON.stringify(r.webhooks.jobStates)}`);
    const stage = (name: string, l: LatencySummary) => `${name} p50 ${l.p50} / p99 ${l.p99}`;
    const st = r.webhooks.stagesMs;
    console.log(`stages (ms): ${stage('recorded->enqueued', st.recordedToEnqueued)}; ${stage('enqueued->attempt', st.enqueuedToAttempt)}; ${stage('attempt->recorded', st.attemptToRecorded)}`);
    console.log(`target p99 < ${P99_TARGET_MS} ms with every delivery made: ${r.p99TargetMet ? 'met' : 'NOT met'}`);
  }
  const list = cpus();
  const document = {
    benchmark: 'webhooks',
    measuredAt: new Date().toISOString(),
    machine: { cpus: list.length, cpuModel: list[0]?.model.trim() ?? 'unknown', memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)), node: process.version, platform: `${platform()}-${arch()}`, loadAverage1mAtStart: Number(load.toFixed(2)) },
    settings: { ...settings, durationS, store: 'SQLite (WAL, synchronous=NORMAL), fresh file', receiver: 'separate process on 127.0.0.1, verifies every signature' },
    storeWrites,
    latencyDefinition: "from the event's occurred_at (recorded) to the receiver writing its 2xx, wall clock, ms",
    p99TargetMs: P99_TARGET_MS,
    scenarios: results,
  };
  mkdirSync(dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`\nwrote ${RESULTS}`);
};

await main();
