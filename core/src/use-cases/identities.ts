import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import type { Identity, IdentityRecord, IdentityStatus } from '../domain/identity.js';
import { extend, isLive, squash, TTL_HOURS, toIdentity } from '../domain/identity.js';
import { labelKey, labelPrefixRange } from '../domain/label-key.js';
import { iso } from '../domain/time.js';
import type { CreateIdentityBody } from '../schemas.js';
import { C } from '../store/collections.js';
import { applyTransition } from '../store/outbox.js';
import { loadIdentity } from './identity-access.js';
import { provisionIdentities, resolveDomain } from './provision-identities.js';

/** A page of a list, as every paged endpoint answers it. */
export type { Page } from '../store/page.js';
import type { Page } from '../store/page.js';

/**
 * Creates one identity: `provisioned`, expiring after `ttl_hours` (default 24), within quota
 * (and within `maxLive` live identities of the organization when given).
 */
export const createIdentity =
  (deps: CoreDeps) =>
  (principal: Principal, input: CreateIdentityBody, cap: { readonly maxLive?: number } = {}): TE.TaskEither<DomainError, Identity> =>
    pipe(
      () => resolveDomain(deps, principal, input.domain),
      TE.flatMap((domain) => () => {
        const spec = { label: input.label, ttlHours: input.ttl_hours ?? TTL_HOURS.default, metadata: input.metadata };
        return provisionIdentities(deps, principal, [spec], { domain, ...cap });
      }),
      TE.map(([record]) => toIdentity(record!)),
    );

/** One identity of the caller's project. */
export const getIdentity =
  (deps: CoreDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, Identity> =>
    pipe(() => loadIdentity(deps, principal, id), TE.map(toIdentity));

/**
 * How a list reads: newest first, optionally of one status (a live status leaves out identities
 * whose TTL has elapsed but which the expiry job has not moved yet, so a filtered page never shows
 * an item of another status). With `label`, a prefix of the normalised label, read as a range of
 * the label index in label order; the store takes one range, so a live status is then compared
 * as stored (docs/api.md, "Label search").
 */
const listQuery = (deps: CoreDeps, principal: Principal, query: ListQuery) => {
  const where = { org_id: principal.orgId, project_id: principal.projectId, ...(query.status === undefined ? {} : { status: query.status }) };
  const key = query.label === undefined ? '' : labelKey(query.label);
  if (key !== '') return { where, range: labelPrefixRange(key), sort: { field: 'label_key', direction: 'asc' as const } };
  const range = query.status !== undefined && isLive(query.status) ? { field: 'expires_at', gt: iso(deps.clock.now()) } : undefined;
  return { where, range, sort: { field: 'created_at', direction: 'desc' as const } };
};

type ListQuery = { readonly status?: IdentityStatus; readonly label?: string; readonly limit: number; readonly offset: number };

/** The project's identities, newest first, optionally of one status or by label. */
export const listIdentities =
  (deps: CoreDeps) =>
  (principal: Principal, query: ListQuery): TE.TaskEither<DomainError, Page<Identity>> =>
  async () => {
    const { where, range, sort } = listQuery(deps, principal, query);
    const [docs, total] = await Promise.all([
      deps.store.find(C.identities, { where, range, sort, limit: query.limit, offset: query.offset }),
      deps.store.count(C.identities, { where, range }),
    ]);
    const items = await Promise.all(docs.map((doc) => loadIdentity(deps, principal, doc.id)));
    return E.right({
      items: items.filter(E.isRight).map((item) => toIdentity(item.right)),
      total,
      limit: query.limit,
      offset: query.offset,
    });
  };

/** Adds hours to a live identity's TTL; the identity becomes `extended`. */
export const extendIdentity =
  (deps: CoreDeps) =>
  (principal: Principal, id: string, additionalHours: number): TE.TaskEither<DomainError, Identity> =>
    pipe(
      () => loadIdentity(deps, principal, id),
      TE.flatMap((found) => () => applyTransition(deps, found.id, (current) => extend(current, additionalHours, deps.clock.now()))),
      TE.map(toIdentity),
    );

/** Squashes an identity: irreversible; its inbox stops taking mail. Children stay live. */
export const squashIdentity =
  (deps: CoreDeps) =>
  (principal: Principal, id: string, reason = 'api'): TE.TaskEither<DomainError, Identity> =>
    pipe(
      () => loadIdentity(deps, principal, id),
      TE.flatMap((found) => () => squashRecord(deps, found, reason)),
      TE.map(toIdentity),
    );

export const squashRecord = (
  deps: CoreDeps,
  record: IdentityRecord,
  reason: string,
): Promise<E.Either<DomainError, IdentityRecord>> =>
  applyTransition(deps, record.id, (current) => squash(current, deps.clock.now(), reason));
