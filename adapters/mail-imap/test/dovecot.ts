/**
 * A real Dovecot for the tests: its own configuration, state and mail in a temp directory, IMAP on
 * a free loopback port, run in the foreground so this process owns (and stops) it by PID.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { dovecotConfig } from './dovecot-config.js';

export interface DovecotUser {
  readonly user: string;
  readonly password: string;
}

export interface Dovecot {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly version: string;
  /** Whether XOAUTH2 is offered (checked against the passwd-file like a password). */
  readonly xoauth2: boolean;
  /** A user with an empty mailbox of its own, so tests can run concurrently. */
  user(): DovecotUser;
  /** Changes a user's password; Dovecot rereads the passwd-file when it changes. */
  setPassword(user: string, password: string): Promise<void>;
  /** Drops every session of `user` from the server side (`doveadm kick`). */
  kick(user: string): void;
  /** A connected imapflow client for seeding mail. */
  connect(user: DovecotUser): Promise<ImapFlow>;
  /** The server's log so far. */
  log(): Promise<string>;
  /** The server's log once a line matches `pattern` (Dovecot writes its log asynchronously). */
  waitForLog(pattern: RegExp): Promise<string>;
  stop(): Promise<void>;
}

export type DovecotStart = { readonly ok: true; readonly server: Dovecot } | { readonly ok: false; readonly reason: string };

const USERS = 40;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** Resolves once the server greets on `port`; rejects when the process exits or 60 s pass (a bound for a hang, not a pace). */
const waitForGreeting = async (port: number, child: ChildProcess): Promise<void> => {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`dovecot exited (${child.exitCode ?? child.signalCode})`);
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.setTimeout(1_000, () => socket.destroy());
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString('latin1').startsWith('* OK'));
      });
      socket.once('error', () => resolve(false));
      socket.once('close', () => resolve(false));
    });
    if (greeted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('dovecot did not greet within 60 s');
};

/** Why Dovecot cannot run here, or its version and the uid/gid of its system user. */
const preflight = (): { reason: string } | { version: string; uid: number; gid: number } => {
  const probe = spawnSync('dovecot', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) return { reason: 'dovecot is not installed (Debian package dovecot-imapd)' };
  if (process.getuid?.() !== 0) return { reason: 'dovecot must be started as root (it switches to its own users)' };
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('dovecot:'));
  const [, , uid, gid] = entry?.split(':') ?? [];
  if (uid === undefined || gid === undefined) return { reason: 'the dovecot system user does not exist' };
  return { version: probe.stdout.trim().split(/\s/)[0] ?? '', uid: Number(uid), gid: Number(gid) };
};

const writeUsers = async (dir: string, users: Map<string, string>, owner: { uid: number; gid: number }): Promise<void> => {
  const lines = [...users].map(([user, password]) => `${user}:{PLAIN}${password}:${owner.uid}:${owner.gid}::${join(dir, 'home', user)}::`);
  // Written aside and renamed, so Dovecot never reads a half-written file.
  await writeFile(join(dir, 'users.tmp'), `${lines.join('\n')}\n`, { mode: 0o644 });
  await rename(join(dir, 'users.tmp'), join(dir, 'users'));
};

const prepare = async (owner: { uid: number; gid: number }): Promise<{ dir: string; users: Map<string, string> }> => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-dovecot-'));
  // Mail processes run as the dovecot user and must reach their homes below this directory.
  await chmod(dir, 0o755);
  const users = new Map<string, string>();
  for (let i = 0; i < USERS; i += 1) {
    const user = `u${i}x${randomBytes(3).toString('hex')}`;
    users.set(user, randomBytes(12).toString('hex'));
    await mkdir(join(dir, 'home', user), { recursive: true });
    await chown(join(dir, 'home', user), owner.uid, owner.gid);
  }
  await writeUsers(dir, users, owner);
  return { dir, users };
};

const stopChild = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
};

/** Ties the server's life to this process: a test process that dies takes its server along. */
const guard = (child: ChildProcess, dir: string): (() => void) => {
  const killNow = (): void => {
    child.kill('SIGTERM');
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // The exiting server may still hold files; a leftover temp directory is harmless.
    }
  };
  // Killed by a signal (a runner's timeout), the process would skip 'exit' and orphan the server.
  const onSignal = (signal: NodeJS.Signals): void => {
    killNow();
    process.kill(process.pid, signal);
  };
  process.once('exit', killNow);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.removeListener('exit', killNow);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
};

interface Running {
  readonly dir: string;
  readonly port: number;
  readonly users: Map<string, string>;
  readonly owner: { readonly uid: number; readonly gid: number };
  readonly child: ChildProcess;
  readonly unguard: () => void;
}

const handle = (running: Running, version: string, xoauth2: boolean): Dovecot => {
  const { dir, port, users, owner } = running;
  const pool = [...users.keys()];
  const log = (): Promise<string> => readFile(join(dir, 'dovecot.log'), 'utf8').catch(() => '');
  return {
    host: '127.0.0.1',
    port,
    version,
    xoauth2,
    user: () => {
      const user = pool.shift();
      if (user === undefined) throw new Error(`the Dovecot harness has only ${USERS} users`);
      return { user, password: users.get(user) ?? '' };
    },
    setPassword: async (user, password) => {
      users.set(user, password);
      await writeUsers(dir, users, owner);
    },
    kick: (user) => {
      const kicked = spawnSync('doveadm', ['-c', join(dir, 'dovecot.conf'), 'kick', user], { encoding: 'utf8' });
      if (kicked.status !== 0) throw new Error(`doveadm kick failed: ${kicked.stderr}`);
    },
    connect: async ({ user, password }) => {
      const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: password }, logger: false });
      // A seeding connection the server drops (kick) must not crash the test process.
      client.on('error', () => undefined);
      await client.connect();
      return client;
    },
    log,
    waitForLog: async (pattern) => {
      for (;;) {
        const text = await log();
        if (text.split('\n').some((line) => pattern.test(line))) return text;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    stop: async () => {
      running.unguard();
      await stopChild(running.child);
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
};

/** Starts a private Dovecot, or says why it cannot run here. */
export const startDovecot = async (): Promise<DovecotStart> => {
  const facts = preflight();
  if ('reason' in facts) return { ok: false, reason: facts.reason };
  const { dir, users } = await prepare(facts);
  const port = await freePort();
  const config = dovecotConfig({ version: facts.version, dir, port });
  await writeFile(join(dir, 'dovecot.conf'), config.text);
  const child = spawn('dovecot', ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const running: Running = { dir, port, users, owner: facts, child, unguard: guard(child, dir) };
  const server = handle(running, facts.version, config.xoauth2);
  try {
    await waitForGreeting(port, child);
    return { ok: true, server };
  } catch (error) {
    const detail = `${stderr}\n${await server.log()}`.trim().split('\n').slice(-3).join(' | ');
    await server.stop();
    return { ok: false, reason: `dovecot ${facts.version} did not start: ${(error as Error).message}; ${detail}` };
  }
};
