/**
 * One or two reference host processes over ONE SQLite file, as behind a load balancer: the same
 * database, the same bootstrap key, each host with its own HTTP and SMTP port. Every cluster gets
 * a fresh temp directory, so no run inherits another run's rows or write-ahead log.
 */
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Child } from '../api/processes.js';
import { freePort, spawnNode, stopChild, waitForReady } from '../api/processes.js';
import type { HostTarget } from '../api/targets.js';
import { ORG_ID, PLAN, PROJECT_ID } from '../api/targets.js';
import type { HostApi } from '../smtp/targets.js';
import { INBOX_DOMAIN, waitForGreeting } from '../smtp/targets.js';

/** One host of a cluster; usable wherever the api and smtp benchmarks' helpers take a host. */
export interface ClusterHost extends HostTarget, HostApi {
  readonly name: string;
  readonly smtpPort: number;
}

export interface Cluster {
  readonly hosts: readonly ClusterHost[];
  /** True while every host process is still running. */
  readonly allUp: () => boolean;
  /** Stops every host, then removes the database file and its WAL. */
  readonly stop: () => Promise<void>;
}

/** Mail to one identity must never meet the per-identity cap during a run (the host's maximum). */
const MAX_MESSAGES_PER_IDENTITY = 1_000_000;

const tempDirs = new Set<string>();

/** Removes every temp directory still present (for the exit handlers, after the hosts stopped). */
export const removeClusterDirs = (): void => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
};

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alphanumeric = (length: number): string =>
  Array.from({ length }, () => ALPHANUMERIC.charAt(randomInt(ALPHANUMERIC.length))).join('');

const hostEnv = (database: string, key: string, port: number, smtpPort: number): Record<string, string> => ({
  PORT: String(port), HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), SMTP_HOST: '127.0.0.1',
  SMTP_GREETING_DELAY_MS: '0', MAIL_AUTH: 'off', INBOX_DOMAIN,
  DATABASE_URL: `sqlite:${database}`, EPHEMAIL_MODE: 'development',
  BOOTSTRAP_API_KEY: key, BOOTSTRAP_ORG_ID: ORG_ID, BOOTSTRAP_PROJECT_ID: PROJECT_ID,
  BOOTSTRAP_SCOPES: 'identities:read,identities:write', BOOTSTRAP_PLAN: PLAN,
  MAX_MESSAGES_PER_IDENTITY: String(MAX_MESSAGES_PER_IDENTITY), LOG_LEVEL: 'silent', SHUTDOWN_GRACE_MS: '2000',
});

const startOne = async (root: string, name: string, database: string, key: string, removeDatabase: () => void): Promise<ClusterHost> => {
  const [port, smtpPort] = [await freePort(), await freePort()];
  const child: Child = spawnNode(name, [join(root, 'hosts/api/dist/main.js')], hostEnv(database, key, port, smtpPort), root);
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${key}`, 'x-org-id': ORG_ID, 'x-project-id': PROJECT_ID };
  try {
    await waitForReady(child, `${base}/readyz`);
    await waitForGreeting(child, smtpPort);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { name, child, base, headers, domain: INBOX_DOMAIN, smtpPort, removeDatabase };
};

const running = (child: Child): boolean => child.process.exitCode === null && child.process.signalCode === null;

/** Starts `count` hosts on a new SQLite file; on any failure stops those already started. */
export const startCluster = async (root: string, count: number): Promise<Cluster> => {
  if (!existsSync(join(root, 'hosts/api/dist/main.js'))) {
    throw new Error('hosts/api/dist/main.js is missing: run `npm run build` first (or use `npm run bench`).');
  }
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-scale-'));
  tempDirs.add(dir);
  const removeDatabase = () => {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  };
  const key = `aid_${alphanumeric(16)}_${alphanumeric(40)}`;
  const names = Array.from({ length: count }, (_, i) => `host ${String.fromCharCode(97 + i)}`);
  // Started together, as a deployment would: the store's init is safe from any number of processes.
  const started = await Promise.allSettled(names.map((name) => startOne(root, name, join(dir, 'scale.db'), key, removeDatabase)));
  const hosts = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const stop = async () => {
    await Promise.all(hosts.map((host) => stopChild(host.child, 10_000)));
    removeDatabase();
  };
  const failed = started.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed !== undefined) {
    await stop();
    throw failed.reason;
  }
  return { hosts, allUp: () => hosts.every((host) => running(host.child)), stop };
};
