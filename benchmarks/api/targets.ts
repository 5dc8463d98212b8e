/**
 * The two servers under load: the reference host on a fresh SQLite file, and the bare Express
 * baseline. Both are separate processes so neither shares an event loop with the load generator.
 */
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Child } from './processes.js';
import { firstJsonLine, freePort, spawnNode, waitForReady } from './processes.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomAlphanumeric = (length: number): string =>
  Array.from({ length }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');

/** `BENCH_API_CPU_PROF=<dir>` writes a CPU profile of the host process into `<dir>`. */
const hostNodeArgs = (): string[] => {
  const dir = process.env.BENCH_API_CPU_PROF;
  return dir === undefined || dir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${resolve(dir)}`];
};

export const ORG_ID = 'org_bench';
export const PROJECT_ID = 'proj_bench';
/** The plan with the largest live-identity quota, so the POST scenario has room. */
export const PLAN = 'enterprise';
export const PLAN_IDENTITY_QUOTA = 50_000;

export interface HostTarget {
  readonly child: Child;
  readonly base: string;
  /** Headers every agent request carries. */
  readonly headers: Record<string, string>;
  /** Removes the temp database; call after the child has exited. */
  readonly removeDatabase: () => void;
}

export interface BareTarget {
  readonly child: Child;
  readonly base: string;
}

/** Starts `hosts/api/dist/main.js`; throws a clear message when the build output is missing. */
export const startHost = async (root: string): Promise<HostTarget> => {
  const entry = join(root, 'hosts/api/dist/main.js');
  if (!existsSync(entry)) throw new Error('hosts/api/dist/main.js is missing: run `npm run build` first (or use `npm run bench`).');
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-bench-'));
  const removeDatabase = () => rmSync(dir, { recursive: true, force: true });
  const key = `aid_${randomAlphanumeric(16)}_${randomAlphanumeric(40)}`;
  const port = await freePort();
  const child = spawnNode('host', [...hostNodeArgs(), entry], {
    PORT: String(port),
    HOST: '127.0.0.1',
    // The API benchmark measures HTTP only; the MX is measured by benchmarks/smtp.
    SMTP_ENABLED: 'false',
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    EPHEMAIL_MODE: 'development',
    BOOTSTRAP_API_KEY: key,
    BOOTSTRAP_ORG_ID: ORG_ID,
    BOOTSTRAP_PROJECT_ID: PROJECT_ID,
    BOOTSTRAP_SCOPES: 'identities:read,identities:write',
    BOOTSTRAP_PLAN: PLAN,
    LOG_LEVEL: 'silent',
    SHUTDOWN_GRACE_MS: '1000',
  }, root);
  const base = `http://127.0.0.1:${port}`;
  await waitForReady(child, `${base}/readyz`);
  const headers = { authorization: `Bearer ${key}`, 'x-org-id': ORG_ID, 'x-project-id': PROJECT_ID };
  return { child, base, headers, removeDatabase };
};

/** Starts the bare baseline answering `body` (JSON text). */
export const startBare = async (root: string, body: string): Promise<BareTarget> => {
  const script = join(root, 'benchmarks/api/bare-server.ts');
  const child = spawnNode('bare express', ['--import=tsx', script], { BARE_BODY: body }, root);
  const { port } = await firstJsonLine(child);
  if (typeof port !== 'number') throw new Error(`bare express reported no port:\n${child.tail()}`);
  return { child, base: `http://127.0.0.1:${port}` };
};

/** Creates the identity the GET scenario reads; answers its id and the exact JSON text. */
export const createIdentity = async (host: HostTarget, requestBody: string): Promise<{ id: string; text: string }> => {
  const response = await fetch(`${host.base}/v1/identities`, {
    method: 'POST',
    headers: { ...host.headers, 'content-type': 'application/json', 'idempotency-key': `bench-setup-${Date.now()}` },
    body: requestBody,
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`creating the benchmark identity answered ${response.status}: ${text}`);
  return { id: (JSON.parse(text) as { id: string }).id, text };
};

/** How many identities the project holds, by the API's own count. */
export const countIdentities = async (host: HostTarget): Promise<number> => {
  const response = await fetch(`${host.base}/v1/identities?limit=1`, { headers: host.headers });
  if (!response.ok) throw new Error(`listing identities answered ${response.status}`);
  return (await response.json() as { total: number }).total;
};
