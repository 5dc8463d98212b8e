import test from 'ava';
import { createTally, METRICS, type MetricName } from '../../src/index.js';

const total = (tally: ReturnType<typeof createTally>, metric: Parameters<ReturnType<typeof createTally>['series']>[0], label = '') =>
  tally.series(metric).get(label)?.[0] ?? 0;

test('metrics catalogue: every name follows the Prometheus conventions of the service', (t) => {
  for (const [name, spec] of Object.entries(METRICS) as [MetricName, (typeof METRICS)[MetricName]][]) {
    t.regex(name, /^ephemail_[a-z_]+$/, name);
    if (spec.kind === 'counter') t.regex(name, /_total$/, name);
    if (spec.kind === 'histogram') t.regex(name, /_seconds$/, name);
    if (spec.kind !== 'counter') t.notRegex(name, /_total$/, name);
    for (const label of spec.labels) t.notRegex(label, /address|email|id$|tenant|org|project/, `${name} has no per-user label`);
    for (const value of 'values' in spec ? spec.values : []) t.is(value.split(',').length, spec.labels.length, `${name} ${value}`);
  }
});

test('tally: counts and observations add up by series, closed label sets start at 0', (t) => {
  const tally = createTally();
  t.is(total(tally, 'ephemail_smtp_messages_total', 'duplicate'), 0);
  t.true(tally.series('ephemail_smtp_messages_total').has('rate'));
  tally.count('ephemail_smtp_messages_total', 'accepted');
  tally.count('ephemail_smtp_messages_total', 'accepted');
  tally.count('ephemail_smtp_received_bytes_total', '', 1500);
  t.is(total(tally, 'ephemail_smtp_messages_total', 'accepted'), 2);
  t.is(total(tally, 'ephemail_smtp_received_bytes_total'), 1500);
  tally.observe('ephemail_store_operation_duration_seconds', 0.0003, 'get');
  tally.observe('ephemail_store_operation_duration_seconds', 99, 'get');
  const bounds = METRICS.ephemail_store_operation_duration_seconds.buckets;
  const get = tally.series('ephemail_store_operation_duration_seconds').get('get')!;
  t.is(get[bounds.indexOf(0.0005)], 1, 'in the first bucket whose bound is not below it');
  t.is(get[bounds.length], 1, 'above every bound: +Inf');
  t.is(get[bounds.length + 1], 99.0003);
  t.is(get[bounds.length + 2], 2);
});

test('tally: a take hands over what was counted since the last one, and a merge adds it to another tally', (t) => {
  let news = 0;
  const thread = createTally(() => (news += 1));
  t.is(thread.take(), undefined, 'nothing counted, nothing to take');
  thread.count('ephemail_parse_failures_total', 'malformed');
  thread.count('ephemail_extractions_total', 'otp,high', 3);
  thread.observe('ephemail_extraction_duration_seconds', 0.002);
  t.is(news, 1, 'the first count after a take is news; the next ones are not');
  const taken = thread.take()!;
  t.is(taken.length, 3, 'only the series that moved');
  t.is(thread.take(), undefined);
  t.is(total(thread, 'ephemail_extractions_total', 'otp,high'), 0, 'a taken tally starts again at 0');
  const host = createTally();
  host.count('ephemail_extractions_total', 'otp,high');
  host.merge(taken);
  host.merge(taken);
  t.is(total(host, 'ephemail_extractions_total', 'otp,high'), 7);
  t.is(total(host, 'ephemail_parse_failures_total', 'malformed'), 2);
  t.is(host.series('ephemail_extraction_duration_seconds').get('')![METRICS.ephemail_extraction_duration_seconds.buckets.length + 2], 2);
  thread.count('ephemail_kafka_publish_errors_total');
  t.is(news, 2);
});

test('tally: the readers of a gauge add up, by label when they answer by label', async (t) => {
  const tally = createTally();
  t.is(await tally.readGauge('ephemail_smtp_sessions_open'), 0, 'no reader reads 0');
  tally.gauge('ephemail_smtp_sessions_open', () => 2);
  tally.gauge('ephemail_smtp_sessions_open', async () => 3);
  t.is(await tally.readGauge('ephemail_smtp_sessions_open'), 5);
  tally.gauge('ephemail_event_relay_lag_events', () => ({ webhooks: 1, kafka: 4 }));
  tally.gauge('ephemail_event_relay_lag_events', () => ({ webhooks: 2 }));
  t.deepEqual(await tally.readGauge('ephemail_event_relay_lag_events'), { webhooks: 3, kafka: 4 });
  tally.gauge('ephemail_longpoll_waiters', () => {
    throw new Error('store down');
  });
  await t.throwsAsync(tally.readGauge('ephemail_longpoll_waiters'), { message: 'store down' });
});
