import { iso, isoPlus } from '../domain/time.js';
import type { DeliveryJob } from './delivery-job.js';
import { closeJob } from './delivery-job.js';
import type { TransportOutcome } from './ports.js';
import type { RetryPolicy } from './retry-schedule.js';
import { retryDelayMs } from './retry-schedule.js';

/** Worker claims that may end without an outcome before the job is given up as poison. */
export const MAX_ABANDONED_CLAIMS = 10;

export interface AttemptTiming {
  readonly startedAt: Date;
  readonly now: Date;
  readonly durationMs: number;
}

const isSuccess = (status: number): boolean => status >= 200 && status <= 299;

/**
 * What a job becomes after one attempt: `delivered` on any 2xx; `failed` on a 410 (recorded
 * as such; the endpoint is not disabled) or after the last attempt; otherwise `pending` again,
 * due after the backoff of the retry policy.
 */
export const afterAttempt = (
  job: DeliveryJob,
  outcome: TransportOutcome,
  timing: AttemptTiming,
  policy: RetryPolicy,
  random: () => number,
): DeliveryJob => {
  const attempt = job.attempt + 1;
  const status = 'status' in outcome ? outcome.status : null;
  const recorded: DeliveryJob = {
    ...job,
    attempt,
    last_status_code: status,
    last_duration_ms: timing.durationMs,
    last_attempt_at: iso(timing.startedAt),
  };
  if (status !== null && isSuccess(status)) return closeJob(recorded, 'delivered', timing.now, null);
  if (status === 410) return closeJob(recorded, 'failed', timing.now, 'the receiver answered 410 Gone; the endpoint stays enabled, replay to retry');
  const error = status !== null ? `the receiver answered ${status}` : 'error' in outcome ? outcome.error : 'no answer';
  const delay = retryDelayMs(policy, attempt, random);
  if (delay === undefined) return closeJob(recorded, 'failed', timing.now, `${error} (last of ${policy.attempts} attempts)`);
  const due = isoPlus(timing.now, delay);
  return { ...recorded, status: 'pending', next_attempt_at: due, lease_owner: null, lease_until: null, last_error: error, updated_at: iso(timing.now) };
};

/** A job whose workers kept dying before recording an outcome: given up rather than retried forever. */
export const isAbandoned = (job: DeliveryJob): boolean =>
  job.status === 'delivering' && job.claims - job.attempt >= MAX_ABANDONED_CLAIMS;
