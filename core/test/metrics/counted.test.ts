import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { MessageParser, ParsedMessage, Tally } from '../../src/index.js';
import { createEphemail, createMemoryDocumentStore, createTally, extractForDelivery, FakeClock, METRICS } from '../../src/index.js';
import { newPrincipal, right } from '../support.js';
import { HOOK_URL, recordingTransport } from '../webhooks/support.js';

const total = (tally: Tally, metric: Parameters<Tally['series']>[0], label = ''): number => tally.series(metric).get(label)?.[0] ?? 0;

/** Observations of a histogram's series so far. */
const observed = (tally: Tally, metric: 'ephemail_extraction_duration_seconds' | 'ephemail_webhook_delivery_latency_seconds'): number =>
  tally.series(metric).get('')?.[METRICS[metric].buckets.length + 2] ?? 0;

const parsedMessage = (text: string): ParsedMessage => ({
  envelopeFrom: '',
  from: { address: 'no-reply@app.example.com', name: 'App' },
  to: [],
  subject: 'Your sign-in code',
  date: null,
  messageId: `<${randomUUID()}@app.example.com>`,
  headers: {},
  text,
  html: '',
  attachments: [],
});

/** A service over the memory store that counts into a tally, with a parser the test controls. */
const setup = async (parser?: MessageParser) => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const meter = createTally();
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, meter, parser, dataKey: Buffer.alloc(32, 7), config: { allowHttpLoopback: false } });
  await app.init();
  const principal = await newPrincipal(app, { scopes: ['identities:read', 'identities:write', 'webhooks:read', 'webhooks:write'] });
  return { app, clock, meter, principal };
};

const envelope = (...rcptTo: string[]) => ({ transport: 'smtp' as const, mailFrom: 'bounce@app.example.com', rcptTo });

test('counted: a message that does not parse is counted by reason', async (t) => {
  const { app, meter, principal } = await setup();
  const identity = right(await app.identities.create(principal, { label: 'unparsed' }));
  await app.mail.ingress.deliver(Buffer.from('x'), envelope(identity.email));
  t.is(total(meter, 'ephemail_parse_failures_total', 'malformed'), 1);
  t.is(total(meter, 'ephemail_extractions_total', 'none,none'), 0, 'nothing was extracted');
});

test('counted: the extraction of a message to two identities is run, timed and counted once', async (t) => {
  const parser: MessageParser = { parse: async () => ({ ok: true, message: parsedMessage('Your verification code is 482913. It expires in 10 minutes.') }) };
  const { app, meter, principal } = await setup(parser);
  const [a, b] = [right(await app.identities.create(principal, { label: 'a' })), right(await app.identities.create(principal, { label: 'b' }))];
  const outcomes = await app.mail.ingress.deliver(Buffer.from('raw'), envelope(a.email, b.email, 'nobody@inbox.test'));
  t.is(outcomes.filter((outcome) => outcome.kind === 'stored').length, 2);
  const series = [...meter.series('ephemail_extractions_total')].filter(([, values]) => values[0]! > 0);
  t.is(series.length, 1);
  t.regex(series[0]![0], /^otp,(low|medium|high)$/);
  t.is(series[0]![1][0], 1);
  t.is(observed(meter, 'ephemail_extraction_duration_seconds'), 1);
});

test('counted: an extraction the parser ran already is counted, but its time is the parser\'s to observe', async (t) => {
  const message = parsedMessage('Nothing to see here, just a newsletter.');
  const parser: MessageParser = { parse: async () => ({ ok: true, message, extraction: extractForDelivery(message) }) };
  const { app, meter, principal } = await setup(parser);
  const identity = right(await app.identities.create(principal, { label: 'parsed' }));
  await app.mail.ingress.deliver(Buffer.from('raw'), envelope(identity.email));
  t.is(total(meter, 'ephemail_extractions_total', 'none,none'), 1);
  t.is(observed(meter, 'ephemail_extraction_duration_seconds'), 0);
});

test('counted: webhook attempts by outcome, the latency from event to 2xx, and the pending and failed gauges', async (t) => {
  const { app, clock, meter, principal } = await setup();
  right(await app.webhooks.create(principal, { url: HOOK_URL, events: ['identity.provisioned'] }));
  right(await app.identities.create(principal, { label: 'one' }));
  right(await app.identities.create(principal, { label: 'two' }));
  t.deepEqual(await meter.readGauge('ephemail_event_relay_lag_events'), {}, 'no relay has run');
  await app.webhooks.dispatchTick('w1');
  t.deepEqual(await meter.readGauge('ephemail_event_relay_lag_events'), { webhooks: 0 });
  t.is(await meter.readGauge('ephemail_webhook_deliveries_pending'), 2);
  right(await app.identities.create(principal, { label: 'three' }));
  t.deepEqual(await meter.readGauge('ephemail_event_relay_lag_events'), { webhooks: 1 }, 'one event the relay has not passed');
  t.is(await meter.readGauge('ephemail_event_outbox_identities'), 0);
  clock.advance(1500);
  let calls = 0;
  const { transport } = recordingTransport(() => ((calls += 1) === 1 ? { status: 200 } : { status: 410 }));
  t.like(await app.webhooks.deliverTick('w1', transport), { delivered: 1, failed: 1 });
  t.is(total(meter, 'ephemail_webhook_attempts_total', 'success'), 1);
  t.is(total(meter, 'ephemail_webhook_attempts_total', 'client_error'), 1);
  const latency = meter.series('ephemail_webhook_delivery_latency_seconds').get('')!;
  t.is(latency[METRICS.ephemail_webhook_delivery_latency_seconds.buckets.length + 1], 1.5, 'from the event, under the service clock');
  t.is(await meter.readGauge('ephemail_webhook_deliveries_pending'), 0);
  t.is(await meter.readGauge('ephemail_webhook_deliveries_failed'), 1);
});

test('counted: the long-poll waiters gauge shows the requests waiting', async (t) => {
  const parser: MessageParser = { parse: async () => ({ ok: true, message: parsedMessage('Your verification code is 482913.') }) };
  const { app, meter, principal } = await setup(parser);
  const identity = right(await app.identities.create(principal, { label: 'waiting' }));
  t.is(await meter.readGauge('ephemail_longpoll_waiters'), 0);
  const waiting = app.extractions.latest(principal, identity.id, { waitSeconds: 20 });
  while ((await meter.readGauge('ephemail_longpoll_waiters')) === 0) await new Promise((resolve) => setImmediate(resolve));
  t.is(await meter.readGauge('ephemail_longpoll_waiters'), 1);
  await app.mail.ingress.deliver(Buffer.from('raw'), envelope(identity.email));
  right(await waiting);
  t.is(await meter.readGauge('ephemail_longpoll_waiters'), 0);
});
