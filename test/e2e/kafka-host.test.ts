import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, startHost } from '@ephemail/host-api';
// The events-kafka adapter's harness: librdkafka's mock brokers (the real Kafka wire protocol) on 127.0.0.1.
import { startMockCluster } from '../../adapters/events-kafka/test/mock-cluster.js';

const started = await startMockCluster('ephemail.events', 3, 3);
if (started.ok) test.after.always(() => started.cluster.stop());
const it = started.ok ? test : (title: string) => test.skip(`${title} (skipped: ${started.reason})`, () => undefined);

it('e2e: with KAFKA_BROKERS the host publishes its event log to Kafka and /readyz checks the brokers', async (t) => {
  if (!started.ok) return;
  const brokers = started.cluster.brokers.join(',');
  const host = await startHost(
    loadConfig({
      DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'k.test',
      KAFKA_BROKERS: brokers,
      // librdkafka's mock cluster cannot serve kafkajs's idempotent producer (see TESTING); production keeps it on.
      KAFKA_IDEMPOTENT: 'false',
    }),
  );
  t.teardown(() => host.close());
  t.is((await fetch(`${host.url}/readyz`)).status, 200);
  const key = await host.ephemail.auth.createApiKey({ orgId: 'org_dev', projectIds: ['proj_dev'], scopes: ['identities:write'] });
  if (E.isLeft(key)) return t.fail();
  const res = await fetch(`${host.url}/v1/identities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.right.key}`, 'x-org-id': 'org_dev', 'x-project-id': 'proj_dev', 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
    body: JSON.stringify({ label: 'to kafka' }),
  });
  const identity = (await res.json()) as { id: string };
  // kcat, an independent client, reads what the host published.
  let published: { key: string; headers: string[]; payload: string }[] = [];
  for (let i = 0; i < 100 && published.length === 0; i += 1) {
    await new Promise((r) => setTimeout(r, 100));
    const read = spawnSync('kcat', ['-C', '-b', brokers, '-t', 'ephemail.events', '-e', '-q', '-J'], { encoding: 'utf8', timeout: 10_000 });
    published = read.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { key: string; headers: string[]; payload: string });
  }
  const mine = published.filter((m) => m.key === identity.id);
  t.is(mine.length, 1);
  const value = JSON.parse(mine[0]!.payload) as { type: string; schema: string; identity_id: string };
  t.like(value, { type: 'identity.provisioned', identity_id: identity.id, schema: 'ephemail.event.v1' });
  t.true(mine[0]!.headers.includes('event-type'));
});
