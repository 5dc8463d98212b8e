import test from 'ava';
import { createTally } from '@ephemail/core';
import { Registry } from 'prom-client';
import { createPromMeter } from '../src/index.js';

/** The value of one sample line of the exposition, or undefined when there is no such line. */
const sample = (text: string, line: string): number | undefined => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

test('prom meter: every catalogue metric is exposed, closed label sets at 0 before anything happened', async (t) => {
  const registry = new Registry();
  createPromMeter(registry);
  const text = await registry.metrics();
  t.regex(text, /# TYPE ephemail_smtp_messages_total counter/);
  t.regex(text, /# TYPE ephemail_store_operation_duration_seconds histogram/);
  t.regex(text, /# TYPE ephemail_smtp_sessions_open gauge/);
  t.is(sample(text, 'ephemail_smtp_messages_total{outcome="duplicate"}'), 0);
  t.is(sample(text, 'ephemail_extractions_total{type="magic_link",confidence="high"}'), 0);
  t.is(sample(text, 'ephemail_smtp_received_bytes_total'), 0);
  t.is(sample(text, 'ephemail_smtp_sessions_open'), 0);
  t.is(sample(text, 'ephemail_imap_polls_total{mailbox="0"}'), undefined, 'open label sets appear when counted');
});

test('prom meter: counts, cumulative buckets and merged thread tallies are served at a scrape', async (t) => {
  const registry = new Registry();
  const meter = createPromMeter(registry);
  meter.count('ephemail_smtp_messages_total', 'accepted');
  meter.count('ephemail_imap_polls_total', 'billing-inbox', 2);
  meter.observe('ephemail_store_operation_duration_seconds', 0.0004, 'get');
  meter.observe('ephemail_store_operation_duration_seconds', 0.002, 'get');
  const thread = createTally();
  thread.count('ephemail_extractions_total', 'otp,high');
  thread.observe('ephemail_store_operation_duration_seconds', 5, 'get');
  meter.merge(thread.take()!);
  const text = await registry.metrics();
  t.is(sample(text, 'ephemail_smtp_messages_total{outcome="accepted"}'), 1);
  t.is(sample(text, 'ephemail_imap_polls_total{mailbox="billing-inbox"}'), 2);
  t.is(sample(text, 'ephemail_extractions_total{type="otp",confidence="high"}'), 1);
  t.is(sample(text, 'ephemail_store_operation_duration_seconds_bucket{operation="get",le="0.0005"}'), 1);
  t.is(sample(text, 'ephemail_store_operation_duration_seconds_bucket{operation="get",le="0.0025"}'), 2);
  t.is(sample(text, 'ephemail_store_operation_duration_seconds_bucket{operation="get",le="1"}'), 2);
  t.is(sample(text, 'ephemail_store_operation_duration_seconds_bucket{operation="get",le="+Inf"}'), 3);
  t.is(sample(text, 'ephemail_store_operation_duration_seconds_count{operation="get"}'), 3);
  t.is(sample(text, 'ephemail_store_operation_duration_seconds_sum{operation="get"}'), 5.0024);
  t.is(sample(text, 'ephemail_store_operation_duration_seconds_count{operation="find"}'), 0);
});

test('prom meter: gauges are read at the scrape; one whose reader fails shows its last value', async (t) => {
  const registry = new Registry();
  const meter = createPromMeter(registry);
  let lag: Record<string, number> | Error = { webhooks: 3, kafka: 0 };
  meter.gauge('ephemail_event_relay_lag_events', () => {
    if (lag instanceof Error) throw lag;
    return lag;
  });
  meter.gauge('ephemail_smtp_sessions_open', async () => 4);
  let text = await registry.metrics();
  t.is(sample(text, 'ephemail_event_relay_lag_events{relay="webhooks"}'), 3);
  t.is(sample(text, 'ephemail_smtp_sessions_open'), 4);
  lag = new Error('store down');
  text = await registry.metrics();
  t.is(sample(text, 'ephemail_event_relay_lag_events{relay="webhooks"}'), 3);
  lag = { webhooks: 1 };
  text = await registry.metrics();
  t.is(sample(text, 'ephemail_event_relay_lag_events{relay="webhooks"}'), 1);
  t.is(sample(text, 'ephemail_event_relay_lag_events{relay="kafka"}'), undefined, 'a relay no longer read is gone');
});
