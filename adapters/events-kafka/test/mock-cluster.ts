/**
 * librdkafka's mock cluster for the tests: a small C program (./mock-cluster/mock_cluster.c),
 * compiled here into a temp directory, runs a 3-broker Kafka on 127.0.0.1. This process owns it
 * and stops it by PID; `down`/`up` take a broker off and back for fault tests.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian installs the mock cluster's API with the librdkafka headers. */
const MOCK_HEADER = '/usr/include/librdkafka/rdkafka_mock.h';
const SOURCE = fileURLToPath(new URL('./mock-cluster/mock_cluster.c', import.meta.url));
export const INSTALL = 'apt-get install -y --no-install-recommends librdkafka-dev gcc kcat';

export interface MockCluster {
  /** `host:port` of every broker; all of them on 127.0.0.1. */
  readonly brokers: readonly string[];
  readonly pid: number;
  /** Creates a topic with `partitions` partitions (one replica each); partition p is led by broker p % 3 + 1. */
  createTopic(name: string, partitions: number): Promise<void>;
  /** Takes broker `id` (1..3) down: open connections drop and new ones are refused. */
  down(id: number): Promise<void>;
  up(id: number): Promise<void>;
  stop(): Promise<void>;
}

export type MockClusterStart = { readonly ok: true; readonly cluster: MockCluster } | { readonly ok: false; readonly reason: string };

/** Why the mock cannot be built here, or undefined when it can. */
const preflight = (): string | undefined => {
  if (!existsSync(MOCK_HEADER)) return `librdkafka-dev is not installed; run: ${INSTALL}`;
  if (spawnSync('gcc', ['--version']).status !== 0) return `gcc is not installed; run: ${INSTALL}`;
  // kcat is the second, independent client some tests read the topic with.
  if (spawnSync('kcat', ['-V']).status !== 0) return `kcat is not installed; run: ${INSTALL}`;
  return undefined;
};

const compile = (dir: string): string | { reason: string } => {
  const binary = join(dir, 'mock_cluster');
  const built = spawnSync('gcc', ['-O2', '-o', binary, SOURCE, '-lrdkafka'], { encoding: 'utf8' });
  return built.status === 0 ? binary : { reason: `the mock cluster did not compile: ${built.stderr.trim().split('\n').slice(-2).join(' | ')}` };
};

/** Lines the helper prints, handed out in order to whoever waits for the next one. */
const lineReader = (child: ChildProcess) => {
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let rest = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) (waiting.shift() ?? ((value: string | undefined) => lines.push(value!)))(line);
  });
  child.once('exit', () => waiting.splice(0).forEach((resolve) => resolve(undefined)));
  return (): Promise<string | undefined> =>
    lines.length > 0 ? Promise.resolve(lines.shift()) : child.exitCode !== null ? Promise.resolve(undefined) : new Promise((resolve) => waiting.push(resolve));
};

/** Ties the helper's life to this process: a test process that dies takes its cluster along. */
const guard = (child: ChildProcess, dir: string): (() => void) => {
  const killNow = (): void => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
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

const handle = (child: ChildProcess, dir: string, brokers: string[], next: () => Promise<string | undefined>): MockCluster => {
  const unguard = guard(child, dir);
  let queue: Promise<unknown> = Promise.resolve();
  // One command at a time, so each answer is read by the command that asked.
  const command = (line: string): Promise<void> => {
    const done = queue.then(async () => {
      child.stdin?.write(`${line}\n`);
      const answer = await next();
      if (answer === undefined || !answer.startsWith('ok ')) throw new Error(`mock cluster: "${line}" answered ${answer ?? '(exit)'}`);
    });
    queue = done.catch(() => undefined);
    return done;
  };
  return {
    brokers,
    pid: child.pid!,
    createTopic: (name, partitions) => command(`topic ${name} ${partitions}`),
    down: (id) => command(`down ${id}`),
    up: (id) => command(`up ${id}`),
    stop: async () => {
      unguard();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.stdin?.end('quit\n');
        const timer = setTimeout(() => process.kill(child.pid!, 'SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
};

/** Builds and starts a cluster of `brokers` brokers with `topic` of `partitions`, or says why it cannot. */
export const startMockCluster = async (topic = 'ephemail.events', partitions = 3, brokers = 3): Promise<MockClusterStart> => {
  const missing = preflight();
  if (missing !== undefined) return { ok: false, reason: missing };
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-kafka-'));
  const binary = compile(dir);
  if (typeof binary !== 'string') {
    await rm(dir, { recursive: true, force: true });
    return { ok: false, reason: binary.reason };
  }
  const child = spawn(binary, [String(brokers), topic, String(partitions)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const next = lineReader(child);
  const cluster = handle(child, dir, [], next);
  const bootstrap = (await next()) ?? '';
  const list = bootstrap.split(',').filter(Boolean);
  // The tests talk to loopback only: refuse a cluster that listens anywhere else.
  if (list.length !== brokers || !list.every((broker) => broker.startsWith('127.0.0.1:'))) {
    await cluster.stop();
    return { ok: false, reason: `the mock cluster did not start on 127.0.0.1 (${bootstrap || stderr.trim() || 'no output'})` };
  }
  return { ok: true, cluster: { ...cluster, brokers: list } };
};
