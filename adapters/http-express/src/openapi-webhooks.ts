import { z } from 'zod';

/** What the delivery log answers, for the OpenAPI document: one row per attempt. */

const timestamp = z.string().describe('ISO 8601 in UTC with milliseconds.');

const DeliveryAttempt = z.strictObject({
  id: z.string().describe('The att_ id of the attempt.'),
  delivery_id: z.string().describe('The dlv_ id of the delivery (one event to this endpoint; a replay is a new delivery).'),
  event_id: z.string().describe('The event delivered: the id in the body the receiver got.'),
  event_type: z.string(),
  attempt: z.number().int().min(1).describe('1 for the first attempt of the delivery, 2 for its first retry, …'),
  state: z.enum(['pending', 'delivered', 'failed']).describe('What the delivery became after this attempt: pending (a retry was scheduled), delivered (a 2xx), failed (the last attempt, or a 410).'),
  status_code: z.number().int().nullable().describe('The HTTP status the receiver answered; null when there was no answer (timeout, refused, DNS, TLS).'),
  duration_ms: z.number().int().min(0).nullable(),
  error: z.string().nullable().describe('Why the attempt failed; null when it succeeded.'),
  attempted_at: timestamp,
  next_retry_at: timestamp.nullable().describe('On the last attempt of a delivery not yet finished: when the next attempt is due; otherwise null.'),
  replay: z.boolean().describe('Whether the delivery was queued by a replay.'),
});

export const WEBHOOK_RESPONSE_SCHEMAS = {
  DeliveryAttempt,
  DeliveryAttemptPage: z.strictObject({ items: z.array(DeliveryAttempt), total: z.number().int().min(0), limit: z.number().int().min(0), offset: z.number().int().min(0) }),
} as const;
