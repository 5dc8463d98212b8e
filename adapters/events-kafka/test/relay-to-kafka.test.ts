import type { KafkaEvent } from '../src/index.js';
import { createEventConsumer, createKafkaEventPublisher, EVENT_SCHEMA_V1, startKafkaRelay } from '../src/index.js';
import { clientFor, eventually, QUICK_GROUP, kafkaSuite, kcat, newTopic, producerFor, service, unique } from './support.js';

const { it } = await kafkaSuite();

it('relay to kafka: each identity keeps its log order on one partition, and the identities spread over all three', async (t, cluster) => {
  const topic = await newTopic(cluster);
  const kafka = clientFor(cluster);
  const { app, history, log } = await service();
  await history(40, 3);
  const relay = startKafkaRelay(app, createKafkaEventPublisher(await producerFor(t, kafka), { topic }), { owner: unique('host'), intervalMs: 20, batch: 50 });
  t.teardown(() => relay.stop());
  const received: { event: KafkaEvent; partition: number }[] = [];
  const consumer = await createEventConsumer({ ...QUICK_GROUP, kafka, groupId: unique('group'), topic, handler: (event, at) => void received.push({ event, partition: at.partition }) });
  t.teardown(() => consumer.stop());

  const logged = await log();
  t.is(logged.length, 40 * 5, 'provisioned, three extensions and squashed, for each identity');
  await eventually('every event to be consumed', () => received.length >= logged.length);

  const partitionOf = new Map<string, Set<number>>();
  const positionsOf = new Map<string, number[]>();
  for (const { event, partition } of received) {
    partitionOf.set(event.identity_id, (partitionOf.get(event.identity_id) ?? new Set()).add(partition));
    positionsOf.set(event.identity_id, [...(positionsOf.get(event.identity_id) ?? []), event.position]);
  }
  for (const [identity, positions] of positionsOf) {
    const expected = logged.filter((event) => event.identity_id === identity).map((event) => event.position);
    t.deepEqual(positions, expected, `${identity} arrives in log order`);
    t.is(partitionOf.get(identity)!.size, 1, `${identity} sits on one partition`);
  }
  t.deepEqual([...new Set(received.map((r) => r.partition))].sort(), [0, 1, 2]);
  t.deepEqual(
    received.filter((r) => r.event.identity_id === logged[0]!.identity_id).map((r) => r.event.type),
    ['identity.provisioned', 'identity.extended', 'identity.extended', 'identity.extended', 'identity.squashed'],
  );
});

it('relay to kafka: kcat, an independent client, reads the ids, keys, headers and v1 values that were published', async (t, cluster) => {
  const topic = await newTopic(cluster);
  const { app, history, log } = await service();
  await history(6, 1);
  const relay = startKafkaRelay(app, createKafkaEventPublisher(await producerFor(t, clientFor(cluster)), { topic }), { owner: unique('host'), intervalMs: 20 });
  await relay.stop();

  const logged = await log();
  const messages = await kcat(cluster, topic);
  t.is(messages.length, logged.length);
  const byId = new Map(messages.map((message) => [JSON.parse(message.payload).id as string, message]));
  for (const event of logged) {
    const message = byId.get(event.id);
    if (message === undefined) return t.fail(`${event.id} was not published`);
    t.is(message.key, event.identity_id);
    t.deepEqual(message.headers, ['event-id', event.id, 'event-type', event.type, 'org-id', event.org_id, 'project-id', event.project_id, 'schema', EVENT_SCHEMA_V1]);
    t.deepEqual(JSON.parse(message.payload), {
      schema: EVENT_SCHEMA_V1,
      id: event.id,
      type: event.type,
      identity_id: event.identity_id,
      org_id: event.org_id,
      project_id: event.project_id,
      occurred_at: event.occurred_at,
      position: event.position,
      data: event.data,
    });
  }
});

it('relay to kafka: a stopped relay has published everything and its cursor sits on the last position', async (t, cluster) => {
  const topic = await newTopic(cluster);
  const { app, history, log } = await service();
  const owner = unique('host');
  const relay = startKafkaRelay(app, createKafkaEventPublisher(await producerFor(t, clientFor(cluster)), { topic }), { owner, intervalMs: 60_000, batch: 7 });
  await history(5, 2);
  await relay.stop();

  const logged = await log();
  t.is((await kcat(cluster, topic)).length, logged.length, 'the events logged after the first pass went out on stop');
  const report = await app.relays.tick('kafka', owner, async () => t.fail('nothing is left to hand'));
  t.is(report.position, logged.at(-1)!.position!);
});
