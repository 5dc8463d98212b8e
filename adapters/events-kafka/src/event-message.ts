import { eventData, type EventRecord } from '@ephemail/core';
import { z } from 'zod';

/** The topic the relay writes to and the consumer reads when none is given. */
export const DEFAULT_TOPIC = 'ephemail.events';

/** The value of the `schema` field and header of every message this version writes. */
export const EVENT_SCHEMA_V1 = 'ephemail.event.v1';

/** Names of the headers on each message, so a consumer can route without parsing the value. */
export const EVENT_HEADERS = {
  id: 'event-id',
  type: 'event-type',
  orgId: 'org-id',
  projectId: 'project-id',
  schema: 'schema',
} as const;

/**
 * The JSON value of a message. Unknown extra fields are accepted (not stripped by a strict
 * check), so a later writer may add fields within v1 without breaking readers; a change that
 * removes or retypes a field gets a new `schema` value instead.
 */
export const EventMessageV1 = z.object({
  schema: z.literal(EVENT_SCHEMA_V1),
  id: z.string().min(1),
  type: z.string().min(1),
  identity_id: z.string().min(1),
  org_id: z.string(),
  project_id: z.string(),
  occurred_at: z.iso.datetime(),
  position: z.number().int().positive(),
  data: z.record(z.string(), z.unknown()),
});

/** An event as a consumer receives it: validated against {@link EventMessageV1}. */
export type KafkaEvent = z.infer<typeof EventMessageV1>;

/** A message ready for `producer.send`: keyed by identity, so one identity's events share a partition. */
export interface EventMessage {
  readonly key: string;
  readonly value: string;
  readonly headers: Record<string, string>;
}

/**
 * Encodes one logged event. Throws when the event has no log position yet: only events the
 * relay read from the log (which always have one) may be published.
 */
export const toEventMessage = (event: EventRecord): EventMessage => {
  if (event.position === undefined) throw new Error(`event ${event.id} has no log position; only logged events are published`);
  const value: KafkaEvent = {
    schema: EVENT_SCHEMA_V1,
    id: event.id,
    type: event.type,
    identity_id: event.identity_id,
    org_id: event.org_id,
    project_id: event.project_id,
    occurred_at: event.occurred_at,
    position: event.position,
    data: eventData(event),
  };
  const headers = {
    [EVENT_HEADERS.id]: event.id,
    [EVENT_HEADERS.type]: event.type,
    [EVENT_HEADERS.orgId]: event.org_id,
    [EVENT_HEADERS.projectId]: event.project_id,
    [EVENT_HEADERS.schema]: EVENT_SCHEMA_V1,
  };
  return { key: event.identity_id, value: JSON.stringify(value), headers };
};

export type ParsedEventMessage = { readonly ok: true; readonly event: KafkaEvent } | { readonly ok: false; readonly reason: string };

/** Decodes and validates a message value; a value that is not a v1 event answers why. */
export const parseEventMessage = (value: Buffer | string | null): ParsedEventMessage => {
  if (value === null) return { ok: false, reason: 'the message has no value (a tombstone)' };
  let json: unknown;
  try {
    json = JSON.parse(typeof value === 'string' ? value : value.toString('utf8'));
  } catch {
    return { ok: false, reason: 'the value is not JSON' };
  }
  const parsed = EventMessageV1.safeParse(json);
  if (parsed.success) return { ok: true, event: parsed.data };
  const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(value)'}: ${issue.message}`);
  return { ok: false, reason: issues.join('; ') };
};
