/**
 * Every metric the service reports, in one place: what it counts, its labels, and for labels
 * with a closed set of values, those values (reported at 0 from the start, so a rate is defined
 * before the first event). Core, the adapters and the host count through the {@link Meter} port by
 * these names; the host's Prometheus meter registers each of them, and docs/api.md describes them.
 * Labels never hold an address, an id or a tenant: each has a handful of values, at most one per
 * configured mailbox or relay.
 */

const SECONDS_FAST = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1] as const;
const SECONDS_REQUEST = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
const SECONDS_WEBHOOK = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200] as const;

/** What the SMTP MX answered: one per message answered at DATA, and one per refused RCPT or MAIL. */
export const SMTP_OUTCOMES = [
  'accepted',
  'duplicate',
  'unknown_recipient',
  'expired',
  'squashed',
  'full',
  'too_large',
  'line_too_long',
  'too_many_recipients',
  'rate',
  'unparseable',
  'failed',
] as const;

/** Why a message did not parse (the parser's `ParseFailure` tags, as label values). */
export const PARSE_FAILURE_REASONS = ['too_large', 'too_many_parts', 'over_budget', 'malformed'] as const;

/**
 * Confidence of the engine's best candidate: `unreported` below the report threshold (the API
 * shows no extraction), then `low`, `medium`, `high`; `none` when it found no candidate.
 */
export const CONFIDENCE_BANDS = ['unreported', 'low', 'medium', 'high'] as const;

/** What one webhook attempt obtained. */
export const WEBHOOK_ATTEMPT_OUTCOMES = ['success', 'redirect', 'client_error', 'server_error', 'no_response', 'endpoint_deleted'] as const;

/** The DocumentStore operations the host times. */
export const STORE_OPERATIONS = ['get', 'insert', 'insert_all', 'transact', 'replace', 'update', 'increment', 'remove', 'find', 'count'] as const;

interface Spec {
  readonly help: string;
  /** Label names, in the order a series' label string joins their values (see Meter). */
  readonly labels: readonly string[];
  /** The series that exist from the start (label strings), when the values are a closed set. */
  readonly values?: readonly string[];
}

export interface CounterSpec extends Spec {
  readonly kind: 'counter';
}

export interface HistogramSpec extends Spec {
  readonly kind: 'histogram';
  /** Upper bounds of the buckets, in the metric's unit. */
  readonly buckets: readonly number[];
}

export interface GaugeSpec extends Spec {
  readonly kind: 'gauge';
}

export type MetricSpec = CounterSpec | HistogramSpec | GaugeSpec;

const extractionSeries = [...['otp', 'magic_link'].flatMap((type) => CONFIDENCE_BANDS.map((band) => `${type},${band}`)), 'none,none'];

export const METRICS = {
  ephemail_smtp_sessions_open: { kind: 'gauge', help: 'SMTP sessions open now.', labels: [] },
  ephemail_smtp_messages_total: {
    kind: 'counter',
    help: 'SMTP answers by outcome: one per message answered at DATA, one per recipient refused at RCPT, one per MAIL or connection refused for rate.',
    labels: ['outcome'],
    values: SMTP_OUTCOMES,
  },
  ephemail_smtp_received_bytes_total: { kind: 'counter', help: 'Bytes of message data received over SMTP, refused messages included.', labels: [] },
  ephemail_smtp_delivery_duration_seconds: {
    kind: 'histogram',
    help: 'Time from the end of DATA until the message was stored (accepted or duplicate).',
    labels: [],
    buckets: SECONDS_REQUEST,
  },
  ephemail_parse_failures_total: { kind: 'counter', help: 'Received messages that did not parse, by reason.', labels: ['reason'], values: PARSE_FAILURE_REASONS },
  ephemail_extractions_total: {
    kind: 'counter',
    help: 'Extractions of delivered messages, by the best candidate\'s type and confidence band.',
    labels: ['type', 'confidence'],
    values: extractionSeries,
  },
  ephemail_extraction_duration_seconds: { kind: 'histogram', help: 'Time the extraction engine took on one delivered message.', labels: [], buckets: SECONDS_FAST },
  ephemail_imap_polls_total: { kind: 'counter', help: 'Passes over an upstream IMAP folder, by configured mailbox.', labels: ['mailbox'] },
  ephemail_imap_messages_fetched_total: { kind: 'counter', help: 'Messages fetched from an upstream IMAP folder, by configured mailbox.', labels: ['mailbox'] },
  ephemail_imap_errors_total: { kind: 'counter', help: 'Failed IMAP sessions and passes (connection, server, delivery), by configured mailbox.', labels: ['mailbox'] },
  ephemail_webhook_attempts_total: { kind: 'counter', help: 'Webhook delivery attempts, by outcome.', labels: ['outcome'], values: WEBHOOK_ATTEMPT_OUTCOMES },
  ephemail_webhook_delivery_latency_seconds: {
    kind: 'histogram',
    help: 'Time from an event being recorded to a 2xx from a webhook receiver (replays excluded).',
    labels: [],
    buckets: SECONDS_WEBHOOK,
  },
  ephemail_webhook_deliveries_pending: { kind: 'gauge', help: 'Webhook deliveries waiting for an attempt or in one (store-wide).', labels: [] },
  ephemail_webhook_deliveries_failed: { kind: 'gauge', help: 'Webhook deliveries given up as failed since the store was created (store-wide).', labels: [] },
  ephemail_event_relay_lag_events: { kind: 'gauge', help: 'Events in the log not yet passed by a relay (newest position minus the relay\'s cursor), by relay.', labels: ['relay'] },
  ephemail_event_outbox_identities: { kind: 'gauge', help: 'Identities with events in their outbox not yet copied to the log (store-wide).', labels: [] },
  ephemail_kafka_publish_errors_total: { kind: 'counter', help: 'Batches of events Kafka did not acknowledge (each is sent again).', labels: [] },
  ephemail_longpoll_waiters: { kind: 'gauge', help: 'Long-poll requests waiting now.', labels: [] },
  ephemail_store_operation_duration_seconds: {
    kind: 'histogram',
    help: 'Time of one store operation, by operation.',
    labels: ['operation'],
    values: STORE_OPERATIONS,
    buckets: SECONDS_FAST,
  },
} as const satisfies Record<string, MetricSpec>;

export type MetricName = keyof typeof METRICS;

type NamesOf<K extends MetricSpec['kind']> = { [N in MetricName]: (typeof METRICS)[N]['kind'] extends K ? N : never }[MetricName];

export type CounterName = NamesOf<'counter'>;
export type HistogramName = NamesOf<'histogram'>;
export type GaugeName = NamesOf<'gauge'>;
