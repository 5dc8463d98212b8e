import { createHash } from 'node:crypto';
import type { DeliveryJob } from './delivery-job.js';

/**
 * One attempt of a delivery, as recorded after its outcome: a document of its own, so the
 * delivery log pages every attempt of an endpoint newest first straight from an index. `state`
 * is what the delivery became after this attempt (`pending` when a retry was scheduled), and
 * `next_retry_at` when that retry was due.
 */
export interface AttemptRecord {
  readonly id: string;
  readonly webhook_id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly delivery_id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly attempt: number;
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly status_code: number | null;
  readonly duration_ms: number | null;
  readonly error: string | null;
  readonly attempted_at: string;
  readonly next_retry_at: string | null;
  readonly replay: boolean;
}

/** The same id whoever records attempt `n` of a delivery, so recording it twice keeps one. */
const attemptId = (deliveryId: string, attempt: number): string =>
  `att_${createHash('sha256').update(`${deliveryId}\n${attempt}`).digest('base64url').slice(0, 32)}`;

/** The record of the attempt that left `job` as it is (its `attempt` and `last_*` fields). */
export const attemptRecordOf = (job: DeliveryJob): AttemptRecord => ({
  id: attemptId(job.id, job.attempt),
  webhook_id: job.webhook_id,
  org_id: job.org_id,
  project_id: job.project_id,
  delivery_id: job.id,
  event_id: job.event_id,
  event_type: job.event_type,
  attempt: job.attempt,
  state: job.status === 'delivered' || job.status === 'failed' ? job.status : 'pending',
  status_code: job.last_status_code,
  duration_ms: job.last_duration_ms,
  error: job.last_error,
  attempted_at: job.last_attempt_at ?? job.updated_at,
  next_retry_at: job.status === 'pending' ? job.next_attempt_at : null,
  replay: job.replay,
});

/** A row of the delivery log: one attempt. */
export type DeliveryAttempt = Omit<AttemptRecord, 'webhook_id' | 'org_id' | 'project_id'>;

/**
 * An attempt as the log shows it. `next_retry_at` is shown only on the last attempt of a
 * delivery that is not finished (`current` is the delivery as it stands now; while the retry is
 * in flight it shows when it was due): on an earlier attempt, or once the delivery ended, there
 * is no next retry to wait for.
 */
export const toDeliveryAttempt = (record: AttemptRecord, current: DeliveryJob | undefined): DeliveryAttempt => {
  const { webhook_id: _w, org_id: _o, project_id: _p, ...row } = record;
  const last = current !== undefined && current.open && current.attempt === record.attempt;
  return { ...row, next_retry_at: last ? record.next_retry_at : null };
};
