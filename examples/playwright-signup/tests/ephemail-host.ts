import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Where the test reaches ephemail: the API, its MX, and the credential. */
export interface EphemailTarget {
  readonly url: string;
  readonly smtpHost: string;
  readonly smtpPort: number;
  readonly apiKey: string;
  readonly orgId: string;
  readonly projectId: string;
}

/** The repository this example lives in: the host is started from its sources. */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const randomText = (length: number): string => Array.from({ length }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');

/** A fresh API key in the shape the host accepts for BOOTSTRAP_API_KEY. */
const newApiKey = (): string => `aid_${randomText(16)}_${randomText(40)}`;

/** Free loopback ports, held open together while chosen so that they differ. */
const freePorts = async (count: number): Promise<number[]> => {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
};

const ready = async (url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the ephemail host exited (${child.exitCode}):\n${output()}`);
    const ok = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the ephemail host was not ready within ${timeoutMs} ms:\n${output()}`);
};

/** The host's settings: loopback ports, nothing kept, and the target's key registered at start. */
const hostEnv = (target: EphemailTarget, port: number): NodeJS.ProcessEnv => ({
  ...process.env,
  EPHEMAIL_MODE: 'development',
  HOST: '127.0.0.1',
  PORT: String(port),
  SMTP_PORT: String(target.smtpPort),
  DATABASE_URL: 'memory:',
  INBOX_DOMAIN: 'inbox.signup.test',
  LOG_LEVEL: 'warn',
  BOOTSTRAP_API_KEY: target.apiKey,
  BOOTSTRAP_ORG_ID: target.orgId,
  BOOTSTRAP_PROJECT_ID: target.projectId,
  BOOTSTRAP_SCOPES: 'identities:read,identities:write,secrets:read',
});

/**
 * Starts the ephemail host from this repository's sources on loopback ports, with a memory store
 * and a bootstrap key that may read secrets (`secrets:read`). `stop` ends it by its process id.
 */
export const startEphemailHost = async (): Promise<{ target: EphemailTarget; stop: () => Promise<void> }> => {
  const [port, smtpPort] = (await freePorts(2)) as [number, number];
  const target: EphemailTarget = {
    url: `http://127.0.0.1:${port}`,
    smtpHost: '127.0.0.1',
    smtpPort,
    apiKey: newApiKey(),
    orgId: 'org_playwright',
    projectId: 'proj_playwright',
  };
  const args = ['--import=tsx', '--conditions=@ephemail/source', 'hosts/api/src/main.ts'];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: hostEnv(target, port), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await ready(target.url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { target, stop };
};
