import { createTally } from '@ephemail/core';
import type { KafkaEvent } from '../src/index.js';
import { createEventConsumer, createKafkaEventPublisher, startKafkaRelay } from '../src/index.js';
import { clientFor, eventually, QUICK_GROUP, kafkaSuite, kcat, newTopic, producerFor, recordingLogger, service, unique } from './support.js';

// This file has a cluster of its own: taking a broker down would disturb any other test on it.
const { it } = await kafkaSuite();

it('broker outage: a broker taken down mid-stream loses nothing; the relay backs off and its cursor waits for the acks', async (t, cluster) => {
  const topic = await newTopic(cluster);
  const { app, history, log } = await service();
  const cursor = async () => ((await app.deps.store.get('relay_cursors', 'kafka')) as { position?: number } | undefined)?.position ?? 0;
  const { logger, lines } = recordingLogger();
  const meter = createTally();
  const publisher = createKafkaEventPublisher(await producerFor(t, clientFor(cluster)), { topic, meter });
  const relay = startKafkaRelay(app, publisher, { owner: unique('host'), intervalMs: 20, maxBackoffMs: 200, batch: 20, logger });
  t.teardown(() => relay.stop());

  await history(10, 1);
  const before = (await log()).at(-1)!.position!;
  await eventually('the first events to be acked', async () => (await cursor()) === before);

  // Broker 1 leads partition 0; thirty identities make sure some of the new events go there.
  await cluster.down(1);
  await history(30, 1);
  const failures = () => lines.filter((line) => line.message.startsWith('kafka relay pass failed'));
  await eventually('a failed pass while the broker is down', () => failures().length >= 2);
  t.is(await cursor(), before, 'the cursor does not move past events the broker did not ack');
  t.true(failures().every((line) => typeof line.fields.retryInMs === 'number' && line.fields.retryInMs <= 200));
  t.true(meter.series('ephemail_kafka_publish_errors_total').get('')![0]! >= failures().length, 'each failed send is counted');

  await cluster.up(1);
  const logged = await log();
  await eventually('the relay to catch up once the broker is back', async () => (await cursor()) === logged.at(-1)!.position);
  await relay.stop();

  const published = (await kcat(cluster, topic)).map((message) => JSON.parse(message.payload).id as string);
  t.deepEqual(
    logged.filter((event) => !published.includes(event.id)).map((event) => event.id),
    [],
    'every logged event was published at least once',
  );

  const received: KafkaEvent[] = [];
  const consumer = await createEventConsumer({ ...QUICK_GROUP, kafka: clientFor(cluster), groupId: unique('group'), topic, handler: (event) => void received.push(event) });
  t.teardown(() => consumer.stop());
  await eventually('the consumer to read every event', () => received.length >= logged.length);
  t.deepEqual(received.map((event) => event.id).sort(), logged.map((event) => event.id).sort(), 'each event reaches the handler once, whatever was re-sent');
  for (const identity of new Set(logged.map((event) => event.identity_id))) {
    const order = received.filter((event) => event.identity_id === identity).map((event) => event.position);
    t.deepEqual(order, [...order].sort((a, b) => a - b), `${identity} still arrives in log order`);
  }
});
