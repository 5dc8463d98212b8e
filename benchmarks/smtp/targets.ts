/**
 * The four SMTP servers the benchmark compares, each started fresh in its own process for each
 * measured run (so one run's stored mail never weighs on the next) and stopped after it:
 * the reference host on a new SQLite file, the two smtp-server baselines and MailDev.
 */
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Child } from '../api/processes.js';
import { firstJsonLine, freePort, spawnNode, stopChild, waitForReady } from '../api/processes.js';
import { ORG_ID, PLAN, PROJECT_ID } from '../api/targets.js';

export const TARGET_KEYS = ['host', 'discard', 'parse', 'maildev'] as const;
export type TargetKey = (typeof TARGET_KEYS)[number];

/** The pair whose ratio is a goal: they run in rounds, taking turns (see run.ts). */
export const PAIRED: readonly TargetKey[] = ['host', 'parse'];

export const TARGET_NAMES: Record<TargetKey, string> = {
  host: 'ephemail host (SQLite)',
  discard: 'smtp-server, discard',
  parse: 'smtp-server + postal-mime parse',
  maildev: 'MailDev',
};

/** Where the host answers HTTP, and how to authenticate there. */
export interface HostApi {
  readonly base: string;
  readonly headers: Record<string, string>;
  readonly domain: string;
}

export interface SmtpTarget {
  readonly key: TargetKey;
  readonly child: Child;
  readonly smtpPort: number;
  /** Set for the host only. */
  readonly api?: HostApi;
  /** Stops the process and removes whatever it wrote to disk. */
  readonly stop: () => Promise<void>;
}

export const INBOX_DOMAIN = 'inbox.bench.test';
/** The most a single identity may hold (the host's upper bound), so no run meets the quota. */
const MAX_MESSAGES_PER_IDENTITY = 1_000_000;

// Temp directories still in use; the exit handlers remove whatever a failed run left behind.
const tempDirs = new Set<string>();
export const removeTempDirs = (): void => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
};
const makeTempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-smtp-bench-'));
  tempDirs.add(dir);
  return dir;
};
const removeTempDir = (dir: string): void => {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
};

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alphanumeric = (length: number): string => Array.from({ length }, () => ALPHANUMERIC.charAt(randomInt(ALPHANUMERIC.length))).join('');

/** Resolves when `port` answers with a 220 greeting; fails early when the child dies. */
export const waitForGreeting = async (child: Child, port: number, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`${child.name} exited with code ${child.process.exitCode}:\n${child.tail()}`);
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.setTimeout(2000, () => socket.destroy());
      socket.once('data', (chunk: Buffer) => {
        resolve(chunk.toString('latin1').startsWith('220'));
        socket.end('QUIT\r\n');
      });
      socket.once('error', () => resolve(false));
      socket.once('close', () => resolve(false));
    });
    if (greeted) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${child.name} did not greet on port ${port} within ${timeoutMs} ms:\n${child.tail()}`);
};

/**
 * `node hosts/api/dist/main.js` with the MX on: a fresh SQLite file, logging off, mail
 * authentication off (it needs DNS answers from the internet), the default greeting delay (0).
 * `nodeArgs` go before the entry point (e.g. `--cpu-prof`).
 */
export const startHost = async (root: string, nodeArgs: readonly string[] = []): Promise<SmtpTarget> => {
  const entry = join(root, 'hosts/api/dist/main.js');
  if (!existsSync(entry)) throw new Error('hosts/api/dist/main.js is missing: run `npm run build` first (or use `npm run bench`).');
  const dir = makeTempDir();
  const key = `aid_${alphanumeric(16)}_${alphanumeric(40)}`;
  const [port, smtpPort] = [await freePort(), await freePort()];
  const child = spawnNode('host', [...nodeArgs, entry], {
    PORT: String(port), HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), SMTP_HOST: '127.0.0.1',
    SMTP_GREETING_DELAY_MS: '0', MAIL_AUTH: 'off', INBOX_DOMAIN,
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`, EPHEMAIL_MODE: 'development',
    BOOTSTRAP_API_KEY: key, BOOTSTRAP_ORG_ID: ORG_ID, BOOTSTRAP_PROJECT_ID: PROJECT_ID,
    BOOTSTRAP_SCOPES: 'identities:read,identities:write,secrets:read', BOOTSTRAP_PLAN: PLAN,
    MAX_MESSAGES_PER_IDENTITY: String(MAX_MESSAGES_PER_IDENTITY), LOG_LEVEL: 'silent', SHUTDOWN_GRACE_MS: '2000',
  }, root);
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child, 10_000);
    removeTempDir(dir);
  };
  try {
    await waitForReady(child, `${base}/readyz`);
    await waitForGreeting(child, smtpPort);
  } catch (error) {
    await stop();
    throw error;
  }
  const headers = { authorization: `Bearer ${key}`, 'x-org-id': ORG_ID, 'x-project-id': PROJECT_ID };
  return { key: 'host', child, smtpPort, api: { base, headers, domain: INBOX_DOMAIN }, stop };
};

/** One of the smtp-server baselines (`sink-server.ts`). */
export const startSink = async (root: string, mode: 'discard' | 'parse'): Promise<SmtpTarget> => {
  const script = join(root, 'benchmarks/smtp/sink-server.ts');
  const child = spawnNode(`smtp-server (${mode})`, ['--import=tsx', script], { SINK_MODE: mode }, root);
  const { port } = await firstJsonLine(child).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  if (typeof port !== 'number') throw new Error(`smtp-server (${mode}) reported no port:\n${child.tail()}`);
  return { key: mode, child, smtpPort: port, stop: () => stopChild(child) };
};

/**
 * MailDev as its users run it, bound to loopback; it keeps every message in memory and writes
 * each one as a file, here into a temp directory of our own that goes away with it.
 */
export const startMaildev = async (root: string): Promise<SmtpTarget> => {
  // The package exports only its library entry (dist/index.js); its command sits beside it.
  const bin = join(dirname(fileURLToPath(import.meta.resolve('maildev'))), 'bin/maildev.js');
  const dir = makeTempDir();
  const [smtpPort, webPort] = [await freePort(), await freePort()];
  const args = [bin, '--smtp', String(smtpPort), '--ip', '127.0.0.1', '--web', String(webPort), '--web-ip', '127.0.0.1', '--mail-directory', dir, '--silent'];
  const child = spawnNode('maildev', args, {}, root);
  const stop = async () => {
    await stopChild(child);
    removeTempDir(dir);
  };
  await waitForGreeting(child, smtpPort).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { key: 'maildev', child, smtpPort, stop };
};

export const startTarget = (root: string, key: TargetKey, hostNodeArgs: readonly string[] = []): Promise<SmtpTarget> => {
  if (key === 'host') return startHost(root, hostNodeArgs);
  if (key === 'maildev') return startMaildev(root);
  return startSink(root, key);
};
