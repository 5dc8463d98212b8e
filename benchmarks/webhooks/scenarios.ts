import { runBaseline } from './baseline.js';
import type { PipelineOptions } from './pipeline.js';
import { runWebhooks } from './pipeline.js';
import type { Receiver } from './receiver-process.js';
import { startReceiver } from './receiver-process.js';
import type { LatencySummary } from './stats.js';
import { summarize } from './stats.js';

export const P99_TARGET_MS = 100;

export type Settings = Omit<PipelineOptions, 'rate' | 'endpoints' | 'spread' | 'durationMs' | 'drainTimeoutMs'>;

export interface Side {
  readonly events: number;
  readonly expected: number;
  readonly delivered: number;
  readonly deliveriesPerSec: number;
  readonly eventsPerSec: number;
  readonly latencyMs: LatencySummary;
  readonly invalidSignatures: number;
  readonly duplicates: number;
}

interface Run {
  readonly events: number;
  readonly expected: number;
  readonly startedAt: number;
  readonly taken: { latencies: number[]; invalid: number; duplicates: number; lastAt: number };
}

/** Rates over the time from the first event to the last 2xx; events/s counts whole events. */
const side = (run: Run, perEvent: number): Side => {
  const seconds = Math.max(0.001, (run.taken.lastAt - run.startedAt) / 1000);
  const delivered = run.taken.latencies.length;
  return {
    events: run.events,
    expected: run.expected,
    delivered,
    deliveriesPerSec: Number((delivered / seconds).toFixed(1)),
    eventsPerSec: Number((delivered / perEvent / seconds).toFixed(1)),
    latencyMs: summarize(run.taken.latencies),
    invalidSignatures: run.taken.invalid,
    duplicates: run.taken.duplicates,
  };
};

export interface Shape {
  readonly name: string;
  readonly endpoints: number;
  readonly spread: PipelineOptions['spread'];
  readonly rate: number;
  readonly durationMs: number;
  readonly drainTimeoutMs: number;
}

const perEventOf = (shape: Shape) => (shape.spread === 'shared' ? 1 : shape.endpoints);

/** The webhook path for one shape, against a receiver of its own. */
export const measureWebhooks = async (shape: Shape, settings: Settings) => {
  const receiver = await startReceiver();
  try {
    const run = await runWebhooks(receiver, { ...settings, ...shape });
    const webhooks = { ...side(run, perEventOf(shape)), recordedEventsPerSec: run.recordedEventsPerSec, jobStates: run.states, pool: run.pool, stagesMs: run.stages };
    return { webhooks, met: webhooks.latencyMs.p99 < P99_TARGET_MS && webhooks.delivered === webhooks.expected };
  } finally {
    await receiver.stop();
  }
};

const measureBaseline = async (receiver: Receiver, shape: Shape, maxSockets: number) =>
  side(await runBaseline(receiver, { rate: shape.rate, endpoints: perEventOf(shape), durationMs: shape.durationMs, maxSockets }), perEventOf(shape));

/** One shape measured both ways in the same run: the bare loop first, then the webhook path. */
export const scenario = async (shape: Shape, settings: Settings) => {
  const receiver = await startReceiver();
  let baseline: Side;
  try {
    console.log(`${shape.name}: baseline (bare http.request loop)...`);
    baseline = await measureBaseline(receiver, shape, settings.maxSockets);
  } finally {
    await receiver.stop();
  }
  console.log(`${shape.name}: webhooks (relay, leased jobs on SQLite, delivery pool, guarded client)...`);
  const { webhooks, met } = await measureWebhooks(shape, settings);
  const ratio = {
    deliveriesPerSec: Number((webhooks.deliveriesPerSec / Math.max(0.001, baseline.deliveriesPerSec)).toFixed(3)),
    p99: Number((webhooks.latencyMs.p99 / Math.max(0.1, baseline.latencyMs.p99)).toFixed(2)),
  };
  const { name, endpoints, spread, rate } = shape;
  return { name, endpoints, spread, offeredEventsPerSec: rate, offeredDeliveriesPerSec: rate * perEventOf(shape), webhooks, baseline, ratio, p99TargetMet: met };
};

/**
 * Full fan-out: the highest offered event rate (from a fixed ladder) at which every delivery is
 * made with p99 under the target. Steps go up until one misses, then one step between the last
 * that met it and the first that did not; the search stops early once `budgetMs` is spent.
 */
export const fanoutSearch = async (endpoints: number, settings: Settings, step: { durationMs: number; drainTimeoutMs: number; budgetMs: number }) => {
  const ladder = [5, 10, 15, 20, 30, 40, 50, 60, 80, 100, 150, 200];
  const started = Date.now();
  const steps: { offeredEventsPerSec: number; offeredDeliveriesPerSec: number; deliveriesPerSec: number; delivered: number; expected: number; p50: number; p99: number; met: boolean }[] = [];
  const attempt = async (rate: number) => {
    const shape: Shape = { name: `fan-out step ${rate} events/s`, endpoints, spread: 'fanout', rate, ...step };
    const { webhooks, met } = await measureWebhooks(shape, settings);
    const entry = { offeredEventsPerSec: rate, offeredDeliveriesPerSec: rate * endpoints, deliveriesPerSec: webhooks.deliveriesPerSec, delivered: webhooks.delivered, expected: webhooks.expected, p50: webhooks.latencyMs.p50, p99: webhooks.latencyMs.p99, met };
    console.log(`  step ${rate} events/s (${rate * endpoints} deliveries/s asked): ${webhooks.delivered}/${webhooks.expected} delivered, ${webhooks.deliveriesPerSec}/s, p50 ${entry.p50} ms, p99 ${entry.p99} ms: ${met ? 'met' : 'not met'}`);
    steps.push(entry);
    return met;
  };
  let best = 0;
  let firstMiss: number | undefined;
  for (const rate of ladder) {
    if (Date.now() - started > step.budgetMs) break;
    if (!(await attempt(rate))) {
      firstMiss = rate;
      break;
    }
    best = rate;
  }
  const middle = firstMiss === undefined ? undefined : Math.round((best + firstMiss) / 2);
  if (middle !== undefined && middle !== best && middle !== firstMiss && Date.now() - started <= step.budgetMs && (await attempt(middle))) best = middle;
  return { stepDurationS: step.durationMs / 1000, steps, highestMetEventsPerSec: best, highestMetDeliveriesPerSec: best * endpoints, searchSeconds: Math.round((Date.now() - started) / 1000) };
};
