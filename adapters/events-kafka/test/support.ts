import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createEphemail, createMemoryDocumentStore, type EventRecord, type Principal } from '@ephemail/core';
import test, { type ExecutionContext } from 'ava';
import type { Kafka, Producer } from 'kafkajs';
import { createKafkaClient, createKafkaProducer, type KafkaLogger } from '../src/index.js';
import { INSTALL, startMockCluster, type MockCluster } from './mock-cluster.js';

export type KafkaTest = (t: ExecutionContext, cluster: MockCluster) => Promise<void>;

/** One mock cluster for the test file, or every test skipped with the reason in its title. */
export const kafkaSuite = async (): Promise<{ it: (title: string, run: KafkaTest) => void; cluster: MockCluster | undefined }> => {
  const started = await startMockCluster();
  if (!started.ok) return { it: (title) => test.skip(`${title} (skipped: ${started.reason})`, () => undefined), cluster: undefined };
  test.after.always(() => started.cluster.stop());
  return { it: (title, run) => test(title, (t) => run(t, started.cluster)), cluster: started.cluster };
};

export { INSTALL };
export { QUICK_GROUP } from './quick-group.js';

export const unique = (prefix: string): string => `${prefix}-${randomBytes(5).toString('hex')}`;

/** A fresh topic of three partitions, so concurrent tests never read each other's messages. */
export const newTopic = async (cluster: MockCluster, partitions = 3): Promise<string> => {
  const topic = unique('events');
  await cluster.createTopic(topic, partitions);
  return topic;
};

/** A client for the mock with short retries, so a broker that is down fails a send in about a second. */
export const clientFor = (cluster: MockCluster, logger?: KafkaLogger): Kafka =>
  createKafkaClient({
    brokers: cluster.brokers,
    clientId: unique('test'),
    logger,
    logLevel: 'error',
    connectionTimeoutMs: 500,
    requestTimeoutMs: 5_000,
    retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 400 },
  });

/** A connected producer, disconnected when the test ends. Not idempotent: the mock's controller id breaks kafkajs's InitProducerId. */
export const producerFor = async (t: ExecutionContext, kafka: Kafka): Promise<Producer> => {
  const producer = createKafkaProducer(kafka, { idempotent: false });
  await producer.connect();
  t.teardown(() => producer.disconnect());
  return producer;
};

/** A logger that keeps every line, for assertions. */
export const recordingLogger = () => {
  const lines: { level: 'info' | 'warn' | 'error'; fields: Record<string, unknown>; message: string }[] = [];
  const logger: KafkaLogger = {
    info: (fields, message) => void lines.push({ level: 'info', fields, message }),
    warn: (fields, message) => void lines.push({ level: 'warn', fields, message }),
    error: (fields, message) => void lines.push({ level: 'error', fields, message }),
  };
  return { logger, lines };
};

/** Resolves once `condition` holds; fails after `timeoutMs` with `what` in the message. */
export const eventually = async (what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

const right = <A>(either: { _tag: 'Left'; left: { _tag: string } } | { _tag: 'Right'; right: A }): A => {
  if (either._tag === 'Left') throw new Error(`expected success, got ${either.left._tag}`);
  return either.right;
};

/** The real core on the memory store, with a tenant to act as. */
export const service = async () => {
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test' });
  await app.init();
  const orgId = unique('org');
  const projectId = unique('proj');
  const key = right(await app.auth.createApiKey({ orgId, projectIds: [projectId], scopes: ['identities:read', 'identities:write'], plan: 'pro' }));
  const principal: Principal = right(await app.auth.authenticate({ authorization: `Bearer ${key.key}`, orgId, projectId }));
  /** Creates `count` identities at once; each is extended `extensions` times, then squashed. */
  const history = async (count: number, extensions: number): Promise<void> => {
    await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const identity = right(await app.identities.create(principal, { label: `identity ${i}` }));
        for (let n = 0; n < extensions; n += 1) right(await app.identities.extend(principal, identity.id, 1));
        right(await app.identities.squash(principal, identity.id));
      }),
    );
  };
  /** The whole event log in position order. */
  const log = async (): Promise<EventRecord[]> =>
    (await app.deps.store.find('events', { sort: { field: 'position', direction: 'asc' }, limit: 100_000 })) as unknown as EventRecord[];
  return { app, principal, history, log };
};

/** Every message of `topic` as kcat (librdkafka, a second client) reads it from the start. */
export const kcat = async (cluster: MockCluster, topic: string): Promise<Record<string, any>[]> => {
  const child = spawn('kcat', ['-C', '-b', cluster.brokers.join(','), '-t', topic, '-e', '-q', '-J'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`kcat exited ${code}: ${err.trim()}`);
  return out
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, any>);
};

/** The offsets `groupId` committed on `topic`, summed over its partitions (the messages it is done with). */
export const committed = async (kafka: Kafka, groupId: string, topic: string): Promise<number> => {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return (offsets?.partitions ?? []).reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
  } finally {
    await admin.disconnect();
  }
};
