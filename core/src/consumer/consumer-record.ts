export type ConsumerPlan = 'trial' | 'human_paid';

/** Active identities a consumer may hold, by plan (decisions: 3 for trial consumers, 10 paid). */
export const CONSUMER_IDENTITY_LIMITS: Readonly<Record<ConsumerPlan, number>> = { trial: 3, human_paid: 10 };

/** A person's account: a personal organization and project that no API key can name. */
export interface ConsumerRecord {
  readonly id: string;
  readonly email: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly plan: ConsumerPlan;
  readonly created_at: string;
  readonly verified_at: string | null;
}

/** A magic link, by the SHA-256 of its token: single use, 15 minutes. */
export interface MagicLinkRecord {
  readonly id: string;
  readonly consumer_id: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly used_at: string | null;
}

/** A session, by the SHA-256 of its token: 30 days unless revoked. */
export interface SessionRecord {
  readonly id: string;
  readonly consumer_id: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly revoked_at: string | null;
}

export const MAGIC_LINK_TTL_MS = 15 * 60_000;
export const SESSION_TTL_MS = 30 * 86_400_000;
export const SESSION_COOKIE = 'service_consumer_session';
