import * as E from 'fp-ts/lib/Either.js';
import type { Principal } from '../auth/principal.js';
import { planLimitsOf } from '../billing/plan-in-force.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { batchTooLarge, domainNotFound, domainNotVerified, invalidRequest, quotaExceeded } from '../domain/errors.js';
import type { DomainRecord } from '../domains/domain-record.js';
import { normalizeHostname } from '../domains/hostname.js';
import type { IdentityRecord } from '../domain/identity.js';
import { labelKey } from '../domain/label-key.js';
import type { ExtractionRules } from '../extraction/rules.js';
import { HOUR_MS, iso, isoPlus } from '../domain/time.js';
import { C } from '../store/collections.js';
import { nextLogPositions } from '../store/log-position.js';
import { flushOutbox, insertWithLoggedEvents, newEvent, withEvent } from '../store/outbox.js';
import { releaseIdentities, reserveIdentities } from '../store/quota.js';

/** One identity to create. */
export interface IdentitySpec {
  readonly label: string;
  readonly ttlHours: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** A deployment's template rules for the identity's extraction. */
  readonly extractionRules?: ExtractionRules;
}

/** Where new identities go: a domain, and for children the parent they hang from. */
export interface Placement {
  readonly domain: string;
  readonly parent?: IdentityRecord;
  /** When set, the batch may not exceed the plan's bulk batch size. */
  readonly bulk?: boolean;
  /** A lower cap than the plan's on the organization's live identities (a consumer's plan). */
  readonly maxLive?: number;
}

/** The inbox domain, which every identity may use. */
export const inboxDomainOf = (deps: CoreDeps): string => deps.config.inboxDomain.toLowerCase();

/**
 * The domain an identity may use: the inbox domain, or a verified custom domain of the caller's
 * project. A name no project of the caller's registered answers `domain_not_found`, exactly like
 * another tenant's; the project's own unverified domain answers `domain_not_verified`.
 */
export const resolveDomain = async (deps: CoreDeps, principal: Pick<Principal, 'orgId' | 'projectId'>, requested: string | undefined): Promise<E.Either<DomainError, string>> => {
  if (requested === undefined) return E.right(inboxDomainOf(deps));
  const name = normalizeHostname(requested);
  if (!name.ok) return E.left(invalidRequest('The request body is invalid.', [{ path: 'body.domain', message: name.reason }]));
  if (name.domain === inboxDomainOf(deps)) return E.right(name.domain);
  const claim = await deps.store.get(C.domainNames, name.domain);
  const record = typeof claim?.domain_id === 'string' ? ((await deps.store.get(C.domains, claim.domain_id)) as DomainRecord | undefined) : undefined;
  if (record === undefined || record.org_id !== principal.orgId || record.project_id !== principal.projectId) return E.left(domainNotFound(name.domain));
  return record.status === 'verified' ? E.right(name.domain) : E.left(domainNotVerified(name.domain));
};

/** Attempts at a free address before giving up; each collides with odds of about 2^-72. */
const ADDRESS_ATTEMPTS = 8;

const newAddress = (deps: CoreDeps, domain: string): string => `${deps.ids.secret(14).toLowerCase()}@${domain}`;

/** Claims a fresh address: insert-if-absent on the address, retried on the rare collision. */
const claimAddress = async (deps: CoreDeps, domain: string, identityId: string): Promise<string> => {
  for (let attempt = 0; attempt < ADDRESS_ATTEMPTS; attempt += 1) {
    const email = newAddress(deps, domain);
    if ((await deps.store.insert(C.addresses, { id: email, identity_id: identityId })) === 'inserted') return email;
  }
  throw new Error(`could not find a free address after ${ADDRESS_ATTEMPTS} attempts`);
};

/**
 * The batch in one `insertAll` (ADR 0017): addresses, identities and their events, all or none.
 * Positions are taken just before, so a relay that meets a position whose event is not there yet
 * waits for one write at most; an address already taken refuses the whole step, which is tried
 * again with new addresses at the same positions. A step that fails leaves gaps, which relays
 * wait for a while and then pass.
 */
const insertBatch = async (
  deps: CoreDeps,
  principal: Principal,
  specs: readonly IdentitySpec[],
  placement: Placement,
): Promise<IdentityRecord[]> => {
  const ids = specs.map(() => deps.ids.next('ident'));
  // One event per identity.
  const position = await nextLogPositions(deps, specs.length);
  for (let attempt = 0; attempt < ADDRESS_ATTEMPTS; attempt += 1) {
    const records = specs.map((spec, i) => buildRecord(deps, principal, spec, ids[i]!, newAddress(deps, placement.domain), placement.parent));
    const addresses = records.map((record) => ({ collection: C.addresses, doc: { id: record.email, identity_id: record.id } }));
    const stored = await insertWithLoggedEvents(deps, records, position, addresses);
    if (stored !== 'exists') return stored;
  }
  throw new Error(`could not find free addresses after ${ADDRESS_ATTEMPTS} attempts`);
};

const buildRecord = (
  deps: CoreDeps,
  principal: Principal,
  spec: IdentitySpec,
  id: string,
  email: string,
  parent: IdentityRecord | undefined,
): IdentityRecord => {
  const now = deps.clock.now();
  const uncapped = isoPlus(now, spec.ttlHours * HOUR_MS);
  const expiresAt = parent !== undefined && parent.expires_at < uncapped ? parent.expires_at : uncapped;
  const record: IdentityRecord = {
    id,
    org_id: principal.orgId,
    project_id: principal.projectId,
    email,
    label: spec.label,
    label_key: labelKey(spec.label),
    status: 'provisioned',
    created_at: iso(now),
    expires_at: expiresAt,
    ttl_hours: spec.ttlHours,
    metadata: spec.metadata ?? {},
    parent_id: parent?.id ?? null,
    root_id: parent?.root_id ?? id,
    depth: parent === undefined ? 0 : parent.depth + 1,
    squashed_at: null,
    activated_at: null,
    pending_events: [],
    event_count: 0,
    has_pending: false,
    message_count: 0,
    latest_extraction_id: null,
    recent_message_ids: [],
    ...(spec.extractionRules === undefined ? {} : { extraction_rules: spec.extractionRules }),
  };
  const data = { email, label: spec.label, expires_at: expiresAt, parent_id: record.parent_id };
  return withEvent(record, newEvent(deps, record, 'identity.provisioned', data));
};

/**
 * Creates identities all or nothing against the plan quota: the places are reserved first with
 * one compare-and-set, so a batch either fits whole or creates nothing. On a store that offers
 * `insertAll`, the batch's addresses, identities and `identity.provisioned` events are inserted
 * in one step, all or none (ADR 0017); on any other, each address is claimed, each identity is
 * written with its event in its own document, and the outbox is flushed after (see outbox).
 */
export const provisionIdentities = async (
  deps: CoreDeps,
  principal: Principal,
  specs: readonly IdentitySpec[],
  placement: Placement,
): Promise<E.Either<DomainError, IdentityRecord[]>> => {
  const limits = await planLimitsOf(deps, principal.orgId);
  if (placement.bulk === true && specs.length > limits.bulkBatchSize) {
    return E.left(batchTooLarge(limits.bulkBatchSize, specs.length));
  }
  const cap = Math.min(limits.identities, placement.maxLive ?? Number.POSITIVE_INFINITY);
  if (!(await reserveIdentities(deps, principal.orgId, specs.length, cap))) {
    return E.left(quotaExceeded('identities', cap, specs.length));
  }
  const created: IdentityRecord[] = [];
  const direct = deps.store.insertAll !== undefined;
  try {
    if (direct) created.push(...(await insertBatch(deps, principal, specs, placement)));
    else {
      for (const spec of specs) {
        const id = deps.ids.next('ident');
        const email = await claimAddress(deps, placement.domain, id);
        const record = buildRecord(deps, principal, spec, id, email, placement.parent);
        await deps.store.insert(C.identities, record);
        created.push(record);
      }
    }
  } finally {
    if (created.length < specs.length) await releaseIdentities(deps, principal.orgId, specs.length - created.length);
  }
  // The direct path answers the records as stored, their outboxes already empty.
  if (direct) return E.right(created);
  // An insert stores version 1.
  for (const record of created) await flushOutbox(deps, record.id, { ...record, version: 1 } as IdentityRecord);
  return E.right(created.map((record) => ({ ...record, pending_events: [], has_pending: false })));
};
