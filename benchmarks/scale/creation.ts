/**
 * Identity creation through one or two hosts over one SQLite file: 50 connections in all, split
 * evenly, every request with its own Idempotency-Key. With two hosts, two autocannon instances run
 * at once (one per host) and their rates are summed; their latencies are merged before taking
 * percentiles, so the total row is the distribution every client saw.
 */
import type { Result } from 'autocannon';
import autocannon from 'autocannon';
import type { Check } from '../api/report.js';
import { countIdentities, PLAN_IDENTITY_QUOTA } from '../api/targets.js';
import type { Cluster, ClusterHost } from './cluster.js';
import { startCluster } from './cluster.js';
import { split } from './settings.js';
import type { Latency } from './stats.js';
import { latencyOf, round } from './stats.js';

export const TOTAL_CONNECTIONS = 50;
const BODY = JSON.stringify({ label: 'scale', metadata: { source: 'scale benchmark' } });
/** Per-phase request caps (over all hosts): both phases plus stragglers stay below the quota. */
const CAPS = { warmup: 6_000, measured: PLAN_IDENTITY_QUOTA - 10_000 };

export interface HostLoad {
  readonly host: string;
  readonly connections: number;
  readonly requestsPerSec: number;
  readonly latencyMs: Latency;
  readonly ok2xx: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodes: Record<string, number>;
  readonly durationS: number;
  /** The request cap, not the duration, ended the phase. */
  readonly capped: boolean;
}

export interface CreationRun {
  readonly hosts: number;
  readonly perHost: readonly HostLoad[];
  readonly requestsPerSec: number;
  readonly latencyMs: Latency;
  readonly non2xx: number;
  readonly errors: number;
  readonly warmup: { readonly ok2xx: number; readonly non2xx: number; readonly errors: number };
  /** Identities the project holds afterwards, by the API's own count. */
  readonly stored: number;
  readonly checks: readonly Check[];
}

interface Fired {
  readonly result: Result;
  readonly samples: readonly number[];
}

/** One autocannon instance against one host; keeps the latency of every 2xx answer. */
const fire = async (host: ClusterHost, connections: number, durationS: number, cap: number): Promise<Fired> => {
  const samples: number[] = [];
  const instance = autocannon({
    url: `${host.base}/v1/identities`,
    method: 'POST',
    // A per-host prefix keeps keys apart even if two instances drew the same id.
    headers: { ...host.headers, 'content-type': 'application/json', 'idempotency-key': `scale-${host.name.slice(-1)}-[<id>]` },
    body: BODY,
    connections,
    duration: durationS,
    idReplacement: true,
    timeout: 10,
    maxOverallRequests: cap,
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
  });
  return { result: await instance, samples };
};

const statusCounts = (result: Result): Record<string, number> =>
  Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]));

const hostLoad = (host: ClusterHost, connections: number, cap: number, { result, samples }: Fired): HostLoad => ({
  host: host.name,
  connections,
  requestsPerSec: round(result.requests.average),
  latencyMs: latencyOf(samples),
  ok2xx: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCodes: statusCounts(result),
  durationS: round(result.duration),
  capped: result['2xx'] + result.non2xx >= cap,
});

/** Every host loaded at once, each by its own instance with its share of connections and cap. */
const phase = async (cluster: Cluster, durationS: number, totalCap: number): Promise<{ loads: HostLoad[]; samples: number[] }> => {
  const connections = split(TOTAL_CONNECTIONS, cluster.hosts.length);
  const caps = split(totalCap, cluster.hosts.length);
  const fired = await Promise.all(cluster.hosts.map((host, i) => fire(host, connections[i]!, durationS, caps[i]!)));
  return {
    loads: fired.map((run, i) => hostLoad(cluster.hosts[i]!, connections[i]!, caps[i]!, run)),
    samples: fired.flatMap((run) => run.samples),
  };
};

const sum = (loads: readonly HostLoad[], pick: (load: HostLoad) => number): number => loads.reduce((total, load) => total + pick(load), 0);

/**
 * A run is sound when every answer was 2xx, no phase hit its cap, the hosts stayed up, and every
 * counted 201 is a new identity (a replayed key would answer 201 without creating one); the store
 * may hold up to one more per connection and phase (requests in flight when a phase stopped).
 */
const checksOf = (label: string, warm: readonly HostLoad[], measured: readonly HostLoad[], stored: number, up: boolean): Check[] => {
  const all = [...warm, ...measured];
  const counted = sum(all, (load) => load.ok2xx);
  const bad = sum(all, (load) => load.non2xx + load.errors);
  return [
    { name: `${label}: only 2xx, no errors (warm-up included)`, ok: bad === 0, detail: `non-2xx + errors ${bad}; codes ${JSON.stringify(measured.map((load) => load.statusCodes))}` },
    { name: `${label}: every 201 created an identity`, ok: stored >= counted && stored <= counted + 2 * TOTAL_CONNECTIONS, detail: `${stored} stored for ${counted} counted` },
    { name: `${label}: below the plan quota`, ok: stored < PLAN_IDENTITY_QUOTA, detail: `${stored} of ${PLAN_IDENTITY_QUOTA}` },
    { name: `${label}: measured phase ran its full duration`, ok: measured.every((load) => !load.capped), detail: measured.some((load) => load.capped) ? 'capped' : 'not capped' },
    { name: `${label}: hosts stayed up`, ok: up, detail: up ? 'all running' : 'a host exited' },
  ];
};

/** Starts a fresh cluster of `hostCount` hosts, warms it, measures it, checks it and stops it. */
export const measureCreation = async (root: string, hostCount: number, durationS: number, warmupS: number): Promise<CreationRun> => {
  const cluster = await startCluster(root, hostCount);
  try {
    const warm = await phase(cluster, warmupS, CAPS.warmup);
    const measured = await phase(cluster, durationS, CAPS.measured);
    const up = cluster.allUp();
    const stored = await countIdentities(cluster.hosts[0]!);
    const label = `create, ${hostCount} host${hostCount > 1 ? 's' : ''}`;
    return {
      hosts: hostCount,
      perHost: measured.loads,
      requestsPerSec: round(sum(measured.loads, (load) => load.requestsPerSec)),
      latencyMs: latencyOf(measured.samples),
      non2xx: sum(measured.loads, (load) => load.non2xx),
      errors: sum(measured.loads, (load) => load.errors),
      warmup: { ok2xx: sum(warm.loads, (l) => l.ok2xx), non2xx: sum(warm.loads, (l) => l.non2xx), errors: sum(warm.loads, (l) => l.errors) },
      stored,
      checks: checksOf(label, warm.loads, measured.loads, stored, up),
    };
  } finally {
    await cluster.stop();
  }
};
