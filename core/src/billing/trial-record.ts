import type { PlanName } from '../domain/plans.js';

export type TrialStatus = 'ACTIVE' | 'EXPIRED' | 'CONVERTED' | 'CANCELED';

export const TRIAL_DAYS = 7;
export const TRIAL_GRACE_DAYS = 3;
export const TRIAL_PLANS = ['starter', 'growth', 'pro'] as const;

/** A trial, also a job: `open` while the clock still has something to do (expire, then purge). */
export interface TrialRecord {
  readonly id: string;
  readonly org_id: string;
  readonly plan: PlanName;
  readonly status: TrialStatus;
  readonly started_at: string;
  readonly expires_at: string;
  readonly grace_until: string;
  readonly converted_at: string | null;
  readonly canceled_at: string | null;
  /** When the grace ran out and the trial's resources were deleted. */
  readonly purged_at: string | null;
  readonly open: boolean;
  readonly due_at: string;
}

const DAY_MS = 86_400_000;

export const toTrial = (r: TrialRecord, now: Date) => ({
  id: r.id,
  plan: r.plan,
  status: r.status,
  started_at: r.started_at,
  expires_at: r.expires_at,
  org_id: r.org_id,
  days_remaining: r.status === 'ACTIVE' ? Math.max(0, Math.ceil((Date.parse(r.expires_at) - now.getTime()) / DAY_MS)) : 0,
  grace_until: r.grace_until,
  converted_at: r.converted_at,
  canceled_at: r.canceled_at,
});
export type Trial = ReturnType<typeof toTrial>;
