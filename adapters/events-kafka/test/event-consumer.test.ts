import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { KafkaEvent } from '../src/index.js';
import { createEventConsumer, createKafkaEventPublisher, EVENT_SCHEMA_V1 } from '../src/index.js';
import { clientFor, committed, QUICK_GROUP, eventually, kafkaSuite, newTopic, producerFor, recordingLogger, service, unique } from './support.js';

const { it } = await kafkaSuite();

const CRASHING_CONSUMER = fileURLToPath(new URL('./fixtures/crash-before-commit.ts', import.meta.url));

/** Runs the crashing consumer to its end; answers the id it was handling when it died. */
const crashWhileHandling = async (brokers: readonly string[], topic: string, groupId: string): Promise<string> => {
  const child = spawn(process.execPath, ['--import=tsx', '--conditions=@ephemail/source', CRASHING_CONSUMER, brokers.join(','), topic, groupId], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const id = /^handling (\S+)$/m.exec(out)?.[1];
  if (code !== 3 || id === undefined) throw new Error(`the crashing consumer exited ${code} with: ${out}`);
  return id;
};

it('event consumer: a consumer process that dies before committing hands the same event to the next member of its group', async (t, cluster) => {
  const topic = await newTopic(cluster);
  const kafka = clientFor(cluster);
  const { history, log } = await service();
  await history(1, 0);
  await createKafkaEventPublisher(await producerFor(t, kafka), { topic }).publish(await log());
  const groupId = unique('group');

  const crashedOn = await crashWhileHandling(cluster.brokers, topic, groupId);
  t.is(await committed(kafka, groupId, topic), 0, 'nothing was committed');

  const received: KafkaEvent[] = [];
  const consumer = await createEventConsumer({ ...QUICK_GROUP, kafka, groupId, topic, handler: (event) => void received.push(event) });
  t.teardown(() => consumer.stop());
  await eventually('the event to come again', () => received.length >= 2, 40_000);
  t.is(received[0]!.id, crashedOn);
  t.deepEqual(received.map((event) => event.type), ['identity.provisioned', 'identity.squashed']);
});

it('event consumer: a failing handler commits nothing; it is retried, holds back its partition, and a new member gets the event', async (t, cluster) => {
  const topic = await newTopic(cluster);
  const kafka = clientFor(cluster);
  const { history, log } = await service();
  await history(1, 1);
  await createKafkaEventPublisher(await producerFor(t, kafka), { topic }).publish(await log());
  const groupId = unique('group');
  const { logger, lines } = recordingLogger();
  const seen: string[] = [];
  const failing = await createEventConsumer({
    ...QUICK_GROUP,
    kafka,
    groupId,
    topic,
    logger,
    handler: (event) => {
      seen.push(event.type);
      if (event.type === 'identity.extended') throw new Error('downstream is down');
    },
  });
  await eventually('the failed event to be delivered again', () => seen.filter((type) => type === 'identity.extended').length >= 2);
  await failing.stop();
  t.false(seen.includes('identity.squashed'), 'nothing after the failed event on its partition was handled');
  t.true(lines.some((line) => line.level === 'warn' && line.fields.error === 'downstream is down'));
  t.is(await committed(kafka, groupId, topic), 1, 'only the event before the failure was committed');

  const received: string[] = [];
  const next = await createEventConsumer({ ...QUICK_GROUP, kafka, groupId, topic, handler: (event) => void received.push(event.type) });
  t.teardown(() => next.stop());
  await eventually('the rest of the partition', () => received.length >= 2);
  t.deepEqual(received, ['identity.extended', 'identity.squashed']);
});

it('event consumer: duplicates within the window reach the handler once; an id older than the window comes through again', async (t, cluster) => {
  const topic = await newTopic(cluster);
  const kafka = clientFor(cluster);
  const { history, log } = await service();
  await history(1, 2);
  const [e1, e2, e3, e4] = await log();
  const publisher = createKafkaEventPublisher(await producerFor(t, kafka), { topic });
  for (const batch of [[e1!, e2!, e3!], [e1!], [e3!], [e4!]]) await publisher.publish(batch);

  const small: string[] = [];
  const usual: string[] = [];
  const consumers = await Promise.all([
    createEventConsumer({ ...QUICK_GROUP, kafka, groupId: unique('group'), topic, dedupeWindow: 2, handler: (event) => void small.push(event.id) }),
    createEventConsumer({ ...QUICK_GROUP, kafka, groupId: unique('group'), topic, handler: (event) => void usual.push(event.id) }),
  ]);
  t.teardown(() => Promise.all(consumers.map((consumer) => consumer.stop())));
  await eventually('the last event in both groups', () => small.includes(e4!.id) && usual.includes(e4!.id));
  t.deepEqual(usual, [e1!.id, e2!.id, e3!.id, e4!.id], 'the default window drops both copies');
  t.deepEqual(small, [e1!.id, e2!.id, e3!.id, e1!.id, e4!.id], 'a window of 2 had forgotten e1 but not e3');
});

it('event consumer: messages that are not v1 events are logged, skipped and committed; valid ones are handled', async (t, cluster) => {
  const topic = await newTopic(cluster, 1);
  const kafka = clientFor(cluster);
  const { history, log } = await service();
  await history(1, 0);
  const [event] = await log();
  const producer = await producerFor(t, kafka);
  const valid = { schema: EVENT_SCHEMA_V1, id: 'evt_x', type: 'identity.extended', identity_id: 'idn_x', org_id: 'o', project_id: 'p', occurred_at: event!.occurred_at, position: 1, data: {} };
  const invalid = ['not json', JSON.stringify({ ...valid, schema: 'ephemail.event.v2' }), JSON.stringify({ ...valid, position: 1.5 }), JSON.stringify({ ...valid, id: undefined }), null];
  await producer.send({ topic, messages: invalid.map((value) => ({ key: 'k', value })) });
  await createKafkaEventPublisher(producer, { topic }).publish([event!]);

  const { logger, lines } = recordingLogger();
  const received: KafkaEvent[] = [];
  const groupId = unique('group');
  const consumer = await createEventConsumer({ ...QUICK_GROUP, kafka, groupId, topic, logger, handler: (e) => void received.push(e) });
  t.teardown(() => consumer.stop());
  await eventually('the valid event', () => received.length >= 1);
  const { id, type, identity_id, org_id, project_id, occurred_at, position, data } = event!;
  t.deepEqual(received, [{ schema: EVENT_SCHEMA_V1, id, type, identity_id, org_id, project_id, occurred_at, position: position!, data }]);
  const skipped = lines.filter((line) => line.message.includes('not an ephemail v1 event'));
  t.deepEqual(skipped.map((line) => line.fields.offset), ['0', '1', '2', '3', '4']);
  t.deepEqual(skipped.map((line) => line.fields.reason), ['the value is not JSON', 'schema: Invalid input: expected "ephemail.event.v1"', 'position: Invalid input: expected int, received number', 'id: Invalid input: expected string, received undefined', 'the message has no value (a tombstone)']);
  await eventually('all six offsets to be committed', async () => (await committed(kafka, groupId, topic)) === 6);
  t.pass();
});

it('event consumer: only the chosen types reach the handler, and the others are committed too', async (t, cluster) => {
  const topic = await newTopic(cluster);
  const kafka = clientFor(cluster);
  const { history, log } = await service();
  await history(4, 1);
  const logged = await log();
  await createKafkaEventPublisher(await producerFor(t, kafka), { topic }).publish(logged);
  const received: string[] = [];
  const groupId = unique('group');
  const consumer = await createEventConsumer({ ...QUICK_GROUP, kafka, groupId, topic, types: ['identity.squashed'], handler: (event) => void received.push(event.type) });
  t.teardown(() => consumer.stop());
  await eventually('every message to be committed', async () => (await committed(kafka, groupId, topic)) === logged.length);
  t.deepEqual(received, ['identity.squashed', 'identity.squashed', 'identity.squashed', 'identity.squashed']);
});
