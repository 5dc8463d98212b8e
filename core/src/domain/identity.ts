import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from './errors.js';
import { identityAlreadySquashed, identityExpired } from './errors.js';
import type { EventRecord } from './event.js';
import type { ExtractionRules } from '../extraction/rules.js';
import type { SecretType } from '../extraction/types.js';
import { HOUR_MS, iso, isoPlus } from './time.js';

export const IDENTITY_STATUSES = ['provisioned', 'active', 'extended', 'squashed', 'expired'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

/** Statuses in which an identity receives mail and can be extended or squashed. */
export const LIVE_STATUSES: readonly IdentityStatus[] = ['provisioned', 'active', 'extended'];

export const isLive = (status: IdentityStatus): boolean => LIVE_STATUSES.includes(status);

export const TTL_HOURS = { min: 1, max: 720, default: 24 } as const;
export const EXTEND_HOURS = { min: 1, max: 720 } as const;
/** Deepest allowed child: a root is depth 0. */
export const MAX_LINEAGE_DEPTH = 5;

/** An identity as stored: the public fields plus tenant, lineage and the embedded outbox. */
export interface IdentityRecord {
  readonly id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly email: string;
  readonly label: string;
  /**
   * The label as label search compares it (label-key.ts). Absent on an identity stored before
   * search came, until the start-up migration writes it (migrate-label-keys.ts).
   */
  readonly label_key?: string;
  readonly status: IdentityStatus;
  readonly created_at: string;
  readonly expires_at: string;
  readonly ttl_hours: number;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly parent_id: string | null;
  readonly root_id: string;
  readonly depth: number;
  readonly squashed_at: string | null;
  readonly activated_at: string | null;
  /**
   * Events written in the same compare-and-set as the change they describe, then copied to the
   * event log. A crash between the two leaves them here for the outbox sweeper: no event is lost.
   */
  readonly pending_events: readonly EventRecord[];
  /** How many events the identity has emitted; the next one gets `seq = event_count + 1`. */
  readonly event_count: number;
  readonly has_pending: boolean;
  /** Messages recorded for this identity (what the mailbox quota counts). */
  readonly message_count: number;
  readonly latest_extraction_id: string | null;
  /**
   * Per secret type, the latest extraction a read by type answers (its winner or a sure
   * runner-up of that type, ADR 0051), so that read is one get, not a walk of the identity's
   * extractions. Absent on an identity that had an extraction before these were kept: reads by
   * type fall back to its latest extraction.
   */
  readonly latest_extraction_by_type?: Readonly<Partial<Record<SecretType, string>>>;
  /** The last messages recorded, newest last: recording the same message twice is a no-op. */
  readonly recent_message_ids: readonly string[];
  /**
   * Set for an identity a marketplace deployment made: the template's rules, which narrow and
   * override the generic extraction engine for this identity's mail (ADR 0043).
   */
  readonly extraction_rules?: ExtractionRules;
}

/** The identity as the API shows it. */
export interface Identity {
  readonly id: string;
  readonly email: string;
  readonly label: string;
  readonly status: IdentityStatus;
  readonly created_at: string;
  readonly expires_at: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly parent_id: string | null;
}

export const toIdentity = (record: IdentityRecord): Identity => ({
  id: record.id,
  email: record.email,
  label: record.label,
  status: record.status,
  created_at: record.created_at,
  expires_at: record.expires_at,
  metadata: record.metadata,
  parent_id: record.parent_id,
});

/** Whether the TTL has elapsed for a live identity at `now`. */
export const isDue = (record: IdentityRecord, now: Date): boolean =>
  isLive(record.status) && record.expires_at <= iso(now);

/** The outcome of a lifecycle rule: the changed record and the event type it emits. */
export interface Transition {
  readonly record: IdentityRecord;
  readonly event: { readonly type: string; readonly data: Readonly<Record<string, unknown>> };
}

const guardUsable = (record: IdentityRecord, now: Date): E.Either<DomainError, IdentityRecord> => {
  if (record.status === 'squashed') return E.left(identityAlreadySquashed(record.id));
  if (record.status === 'expired' || isDue(record, now)) return E.left(identityExpired(record.id));
  return E.right(record);
};

/** Extend: live identities only; the result is `extended` with a later `expires_at`. */
export const extend = (record: IdentityRecord, additionalHours: number, now: Date): E.Either<DomainError, Transition> =>
  E.map((live: IdentityRecord): Transition => {
    const expiresAt = isoPlus(live.expires_at, additionalHours * HOUR_MS);
    return {
      record: { ...live, status: 'extended', expires_at: expiresAt, ttl_hours: live.ttl_hours + additionalHours },
      event: { type: 'identity.extended', data: { additional_hours: additionalHours, expires_at: expiresAt } },
    };
  })(guardUsable(record, now));

/** Squash: irreversible; refused for squashed (409 already squashed) and expired identities. */
export const squash = (record: IdentityRecord, now: Date, reason: string): E.Either<DomainError, Transition> =>
  E.map((live: IdentityRecord): Transition => ({
    record: { ...live, status: 'squashed', squashed_at: iso(now) },
    event: { type: 'identity.squashed', data: { reason, squashed_at: iso(now) } },
  }))(guardUsable(record, now));

/** Expire: only a live identity whose TTL has elapsed; `undefined` when there is nothing to do. */
export const expire = (record: IdentityRecord, now: Date): Transition | undefined =>
  isDue(record, now)
    ? {
        record: { ...record, status: 'expired' },
        event: { type: 'identity.expired', data: { expires_at: record.expires_at } },
      }
    : undefined;

/** Activate on the first accepted mail: `provisioned` → `active`; other statuses are kept. */
export const activate = (record: IdentityRecord, now: Date): Transition | undefined =>
  record.status === 'provisioned' && !isDue(record, now)
    ? {
        record: { ...record, status: 'active', activated_at: iso(now) },
        event: { type: 'identity.activated', data: { activated_at: iso(now) } },
      }
    : undefined;
