/**
 * The event types of the specification's webhook table: what endpoints can subscribe to.
 * (`identity.activated` is a stored lifecycle event only, never delivered.)
 */
export const WEBHOOK_EVENT_TYPES = [
  'email.received',
  'extraction.completed',
  'identity.provisioned',
  'identity.extended',
  'identity.squashed',
  'identity.expired',
  'consumer.notification.sent',
  'consumer.notification.failed',
] as const;

/** Every type the event log records: the webhook types plus `identity.activated`. */
export const EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, 'identity.activated'] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** One entry of the event log (the outbox every relay reads). */
export interface EventRecord {
  readonly id: string;
  readonly type: string;
  readonly identity_id: string;
  /** Position in the identity's own history (1, 2, ...): orders events written in one millisecond. */
  readonly seq: number;
  /**
   * Position in the whole log (1, 2, ...), given when the event is written to the log; relays
   * read the log in this order with their own cursor. Absent while the event is still pending.
   */
  readonly position?: number;
  readonly org_id: string;
  readonly project_id: string;
  readonly occurred_at: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The event as the API and webhooks show it: tenant fields stay internal. */
export interface PublicEvent {
  readonly id: string;
  readonly type: string;
  readonly identity_id: string;
  readonly occurred_at: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * An event's data as every reader sees it (API, webhooks, Kafka): it names its identity first,
 * `identity_id`, taken from the record, so events recorded before data carried it name it too.
 */
export const eventData = (event: Pick<EventRecord, 'identity_id' | 'data'>): Readonly<Record<string, unknown>> => {
  if (event.data.identity_id === event.identity_id) return event.data;
  const { identity_id: _other, ...rest } = event.data;
  return { identity_id: event.identity_id, ...rest };
};

export const toPublicEvent = (event: EventRecord): PublicEvent => ({
  id: event.id,
  type: event.type,
  identity_id: event.identity_id,
  occurred_at: event.occurred_at,
  data: eventData(event),
});
