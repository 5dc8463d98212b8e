/**
 * Mail ingest through one or two hosts over one SQLite file: smtp-source sends N messages of
 * 4 KiB over 20 reused sessions per host (N/2 to each host when there are two, both at once), each
 * host's share to an identity created beforehand. The run counts only when every message was
 * answered 250 and the API then lists exactly that many messages for each identity.
 */
import type { Check } from '../api/report.js';
import type { Identity } from '../smtp/host-api.js';
import { countMessages, createIdentity } from '../smtp/host-api.js';
import { SESSIONS } from '../smtp/source.js';
import type { Cluster, ClusterHost } from './cluster.js';
import { startCluster } from './cluster.js';
import { split } from './settings.js';
import type { SourceOutcome } from './sources.js';
import { PAYLOAD_BYTES, runSources } from './sources.js';
import { round } from './stats.js';

export interface HostIngest {
  readonly host: string;
  readonly messages: number;
  readonly exitCode: number | null;
  readonly wallS: number;
  readonly messagesPerSec: number;
  /** Messages the API lists for this host's identity afterwards. */
  readonly stored: number;
  readonly stderr: string;
}

export interface IngestRun {
  readonly hosts: number;
  readonly messages: number;
  readonly sessionsPerHost: number;
  readonly payloadBytes: number;
  /** From the first smtp-source start to the last one's exit. */
  readonly wallS: number;
  readonly messagesPerSec: number;
  readonly stored: number;
  readonly perHost: readonly HostIngest[];
  readonly checks: readonly Check[];
}

/** One identity per host, created through that host (any host would do: they share the store). */
const recipients = (cluster: Cluster, label: string): Promise<Identity[]> =>
  Promise.all(cluster.hosts.map((host) => createIdentity(host, `${label} ${host.name}`)));

const send = (hosts: readonly ClusterHost[], to: readonly Identity[], total: number) => {
  const shares = split(total, hosts.length);
  return runSources(hosts.map((host, i) => ({ port: host.smtpPort, recipient: to[i]!.email, messages: shares[i]! })));
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The count per identity. A 250 is sent once the message is stored, so the first read should
 * already match; a few retries only guard against a slow read under a busy machine.
 */
const storedCounts = async (cluster: Cluster, to: readonly Identity[], expected: readonly number[]): Promise<number[]> => {
  let counts: number[] = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    counts = await Promise.all(to.map((identity, i) => countMessages(cluster.hosts[i]!, identity.id)));
    if (counts.every((count, i) => count === expected[i])) break;
    await sleep(500);
  }
  return counts;
};

const perHost = (cluster: Cluster, outcomes: readonly SourceOutcome[], stored: readonly number[]): HostIngest[] =>
  outcomes.map((outcome, i) => ({
    host: cluster.hosts[i]!.name,
    messages: outcome.messages,
    exitCode: outcome.exitCode,
    wallS: round(outcome.wallMs / 1000),
    messagesPerSec: round(outcome.messages / (outcome.wallMs / 1000), 1),
    stored: stored[i]!,
    stderr: outcome.stderr,
  }));

const checksOf = (label: string, warmOk: boolean, hosts: readonly HostIngest[], up: boolean): Check[] => [
  { name: `${label}: warm-up accepted`, ok: warmOk, detail: warmOk ? 'every message answered 250' : 'smtp-source failed during the warm-up' },
  ...hosts.map((h) => ({
    name: `${label}: ${h.host} answered 250 to every message`,
    ok: h.exitCode === 0,
    detail: h.exitCode === 0 ? `${h.messages} messages` : `smtp-source exit ${h.exitCode}: ${h.stderr}`,
  })),
  ...hosts.map((h) => ({ name: `${label}: ${h.host}'s messages all stored`, ok: h.stored === h.messages, detail: `${h.stored} of ${h.messages}` })),
  { name: `${label}: hosts stayed up`, ok: up, detail: up ? 'all running' : 'a host exited' },
];

/** Starts a fresh cluster, warms it with mail to identities of its own, measures, checks and stops it. */
export const measureIngest = async (root: string, hostCount: number, messages: number, warmupMessages: number): Promise<IngestRun> => {
  const cluster = await startCluster(root, hostCount);
  try {
    const warm = await send(cluster.hosts, await recipients(cluster, 'scale warm-up'), warmupMessages);
    const to = await recipients(cluster, 'scale ingest');
    const run = await send(cluster.hosts, to, messages);
    const up = cluster.allUp();
    const stored = up ? await storedCounts(cluster, to, run.outcomes.map((o) => o.messages)) : run.outcomes.map(() => 0);
    const hosts = perHost(cluster, run.outcomes, stored);
    const label = `ingest, ${hostCount} host${hostCount > 1 ? 's' : ''}`;
    return {
      hosts: hostCount,
      messages,
      sessionsPerHost: SESSIONS,
      payloadBytes: PAYLOAD_BYTES,
      wallS: round(run.wallMs / 1000),
      messagesPerSec: round(messages / (run.wallMs / 1000), 1),
      stored: stored.reduce((total, count) => total + count, 0),
      perHost: hosts,
      checks: checksOf(label, warm.outcomes.every((o) => o.exitCode === 0), hosts, up),
    };
  } finally {
    await cluster.stop();
  }
};
