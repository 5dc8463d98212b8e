import { createHash } from 'node:crypto';
import { eventData, type EventRecord } from '../domain/event.js';
import { iso, isoPlus } from '../domain/time.js';
import type { DeliveryState } from './delivery-state.js';

/** The delivery object of the specification, as posted: `{id, type, timestamp, data}`. */
export interface DeliveryPayload {
  readonly id: string;
  readonly type: string;
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * One event to deliver to one endpoint: a leased job in the store. Workers in any process find
 * due jobs (`next_attempt_at` reached) and claim one by compare-and-set. While a job is
 * `delivering`, `next_attempt_at` equals `lease_until`, so the same query that finds due jobs
 * also finds jobs whose worker died: one range serves both. `open` (pending or delivering) is
 * the query's one equality, so every store reads due jobs in `next_attempt_at` order straight
 * from the index and stops at the limit, however large a backlog is.
 */
export interface DeliveryJob {
  readonly id: string;
  readonly webhook_id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly event_id: string;
  readonly event_type: string;
  /** What is posted; event data is redacted when recorded, so it holds no raw secret. */
  readonly payload: DeliveryPayload;
  readonly replay: boolean;
  readonly status: DeliveryState;
  /** Whether the job still waits for an attempt or is in one (`pending` or `delivering`). */
  readonly open: boolean;
  /** Attempts whose outcome was recorded. */
  readonly attempt: number;
  /** Times a worker claimed the job; claims beyond `attempt` were abandoned (a worker died). */
  readonly claims: number;
  /** When the job may next be claimed; `null` once it is delivered or failed. */
  readonly next_attempt_at: string | null;
  readonly lease_owner: string | null;
  readonly lease_until: string | null;
  readonly last_status_code: number | null;
  readonly last_duration_ms: number | null;
  readonly last_error: string | null;
  readonly last_attempt_at: string | null;
  readonly delivered_at: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/**
 * The id of the job delivering `eventId` to `webhookId`: the same for every process and every
 * time the relay hands the event again, so enqueuing is insert-if-absent and never doubles.
 */
export const deliveryJobId = (eventId: string, webhookId: string): string =>
  `dlv_${createHash('sha256').update(`${eventId}\n${webhookId}`).digest('base64url').slice(0, 32)}`;

export const payloadOf = (event: Pick<EventRecord, 'id' | 'type' | 'occurred_at' | 'identity_id' | 'data'>): DeliveryPayload => ({
  id: event.id,
  type: event.type,
  timestamp: event.occurred_at,
  data: eventData(event),
});

export const newDeliveryJob = (
  id: string,
  webhook: { readonly id: string; readonly org_id: string; readonly project_id: string },
  event: EventRecord,
  now: Date,
  replay: boolean,
): DeliveryJob => ({
  id,
  webhook_id: webhook.id,
  org_id: webhook.org_id,
  project_id: webhook.project_id,
  event_id: event.id,
  event_type: event.type,
  payload: payloadOf(event),
  replay,
  status: 'pending',
  open: true,
  attempt: 0,
  claims: 0,
  next_attempt_at: iso(now),
  lease_owner: null,
  lease_until: null,
  last_status_code: null,
  last_duration_ms: null,
  last_error: null,
  last_attempt_at: null,
  delivered_at: null,
  created_at: iso(now),
  updated_at: iso(now),
});

/** The job held by `owner` until `now + leaseMs`. */
export const claimJob = (job: DeliveryJob, owner: string, now: Date, leaseMs: number): DeliveryJob => {
  const until = isoPlus(now, leaseMs);
  return { ...job, status: 'delivering', claims: job.claims + 1, lease_owner: owner, lease_until: until, next_attempt_at: until, updated_at: iso(now) };
};

/** The job closed without a further attempt (final). */
export const closeJob = (job: DeliveryJob, status: 'delivered' | 'failed', now: Date, error: string | null): DeliveryJob => ({
  ...job,
  status,
  open: false,
  next_attempt_at: null,
  lease_owner: null,
  lease_until: null,
  last_error: error,
  delivered_at: status === 'delivered' ? iso(now) : job.delivered_at,
  updated_at: iso(now),
});

/** A delivery job as the delivery log shows it. */
export interface Delivery {
  readonly id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly state: DeliveryState;
  readonly attempt: number;
  readonly status_code: number | null;
  readonly duration_ms: number | null;
  readonly next_retry_at: string | null;
  readonly error: string | null;
  readonly replay: boolean;
  readonly created_at: string;
  readonly last_attempt_at: string | null;
  readonly delivered_at: string | null;
}

export const toDelivery = (job: DeliveryJob): Delivery => ({
  id: job.id,
  event_id: job.event_id,
  event_type: job.event_type,
  state: job.status,
  attempt: job.attempt,
  status_code: job.last_status_code,
  duration_ms: job.last_duration_ms,
  next_retry_at: job.status === 'pending' && job.attempt > 0 ? job.next_attempt_at : null,
  error: job.last_error,
  replay: job.replay,
  created_at: job.created_at,
  last_attempt_at: job.last_attempt_at,
  delivered_at: job.delivered_at,
});
