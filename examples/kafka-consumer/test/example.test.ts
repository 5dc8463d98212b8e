import { createEphemail, createMemoryDocumentStore, type EventRecord } from '@ephemail/core';
import { createKafkaClient, createKafkaEventPublisher, createKafkaProducer } from '@ephemail/events-kafka';
import test from 'ava';
// The adapter's own mock-cluster harness (librdkafka's mock brokers on 127.0.0.1), reused as is.
import { startMockCluster } from '../../../adapters/events-kafka/test/mock-cluster.js';
import { printIdentityEvents } from '../src/index.js';

const started = await startMockCluster();
if (started.ok) test.after.always(() => started.cluster.stop());
const it = started.ok ? test : (title: string) => test.skip(`${title} (skipped: ${started.reason})`, () => undefined);

const right = <A>(either: { _tag: 'Left'; left: { _tag: string } } | { _tag: 'Right'; right: A }): A => {
  if (either._tag === 'Left') throw new Error(`expected success, got ${either.left._tag}`);
  return either.right;
};

it('example: the consumer prints the identity events the relay published, one line each, in order', async (t) => {
  if (!started.ok) return;
  const { cluster } = started;
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.example.com' });
  await app.init();
  const key = right(await app.auth.createApiKey({ orgId: 'org_demo', projectIds: ['proj_demo'], scopes: ['identities:write'], plan: 'growth' }));
  const principal = right(await app.auth.authenticate({ authorization: `Bearer ${key.key}`, orgId: 'org_demo', projectId: 'proj_demo' }));
  const identity = right(await app.identities.create(principal, { label: 'checkout test' }));
  right(await app.identities.extend(principal, identity.id, 2));
  right(await app.identities.squash(principal, identity.id));

  const producer = createKafkaProducer(createKafkaClient({ brokers: cluster.brokers }), { idempotent: false });
  await producer.connect();
  t.teardown(() => producer.disconnect());
  await app.relays.tick('kafka', 'example', createKafkaEventPublisher(producer).publish);

  const lines: string[] = [];
  const consumer = await printIdentityEvents({ brokers: cluster.brokers.join(','), groupId: `example-${Date.now()}`, print: (line) => lines.push(line) });
  t.teardown(() => consumer.stop());
  while (lines.length < 3) await new Promise((resolve) => setTimeout(resolve, 25));
  t.deepEqual(
    lines.map((line) => line.split(' ').slice(1, 3)),
    ['identity.provisioned', 'identity.extended', 'identity.squashed'].map((type) => [type, identity.id]),
  );
  t.regex(lines[0]!, / until \S+ \(org_demo\/proj_demo, #1\)$/);
  const logged = (await app.deps.store.find('events', { sort: { field: 'position', direction: 'asc' } })) as unknown as EventRecord[];
  t.is(logged.length, 3);
});
