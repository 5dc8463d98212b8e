import { spawnSync } from 'node:child_process';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, startHost } from '@ephemail/host-api';
// The events-kafka adapter's harness: librdkafka's mock brokers (the real Kafka wire protocol) on 127.0.0.1.
import { startMockCluster } from '../../adapters/events-kafka/test/mock-cluster.js';
import { REVEALER_SCOPES, deliverTable, extractedOnly, describeLeaks, leaksIn, until, type Leak } from './secret-views-support.js';

// The regression test for the event log published to Kafka: the table of mails delivered
// over SMTP to a host with KAFKA_BROKERS, and every record it published, read back by kcat (an
// independent client), keys, headers and values, shows no code in any spelling.

const TOPIC = 'ephemail.secret-views';
const started = await startMockCluster(TOPIC, 3, 3);
if (started.ok) test.after.always(() => started.cluster.stop());
const it = started.ok ? test : (title: string) => test.skip(`${title} (skipped: ${started.reason})`, () => undefined);

interface Record {
  readonly key: string | null;
  readonly headers: string[] | null;
  readonly payload: string | null;
}

it('secret views (kafka): no record the host publishes for the mails of the table shows a code, in its key, headers or value', async (t) => {
  if (!started.ok) return;
  const brokers = started.cluster.brokers.join(',');
  const host = await startHost(
    loadConfig({
      DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'kafka-views.test',
      KAFKA_BROKERS: brokers, KAFKA_TOPIC: TOPIC,
      // librdkafka's mock cluster cannot serve kafkajs's idempotent producer (see TESTING); production keeps it on.
      KAFKA_IDEMPOTENT: 'false',
    }),
  );
  t.teardown(() => host.close());
  const created = await host.ephemail.auth.createApiKey({ orgId: 'org_kafka_views', projectIds: ['proj_kafka_views'], scopes: [...REVEALER_SCOPES] });
  if (E.isLeft(created)) return t.fail(created.left._tag);
  const delivered = extractedOnly(await deliverTable(host, { url: host.url, org: 'org_kafka_views', project: 'proj_kafka_views' }, created.right.key), t.log);
  const ids = delivered.map((d) => d.identity.id);

  const read = (): Record[] => {
    const out = spawnSync('kcat', ['-C', '-b', brokers, '-t', TOPIC, '-e', '-q', '-J'], { encoding: 'utf8', timeout: 10_000 });
    return out.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record);
  };
  const typesOf = (records: Record[], id: string) => records.filter((r) => r.key === id).map((r) => (JSON.parse(r.payload ?? '{}') as { type?: string }).type);
  // Each identity's mail and its extraction are published: the records the leaks would be in.
  const records = await until(
    async () => read(),
    (all) => ids.every((id) => ['email.received', 'extraction.completed'].every((type) => typesOf(all, id).includes(type))),
    45_000,
  );
  for (const id of ids) t.true(typesOf(records, id).includes('email.received'), `${id}: its mail was published`);
  t.true(records.some((r) => (r.payload ?? '').includes('•••')), 'masked forms are published, not dropped');
  const leaks: Leak[] = records.flatMap((r) => [...leaksIn('kafka key', r.key ?? ''), ...leaksIn('kafka headers', r.headers ?? []), ...leaksIn('kafka value', r.payload ?? '')]);
  t.deepEqual(leaks, [], describeLeaks(leaks));
});
