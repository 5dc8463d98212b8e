import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import { planLimitsOf } from '../billing/plan-in-force.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { domainAlreadyRegistered, domainNotFound, domainQuotaExceeded, invalidRequest } from '../domain/errors.js';
import { iso } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { findPage } from '../store/page.js';
import { slotsOf } from '../store/slots.js';
import type { Page } from '../use-cases/identities.js';
import type { DomainDeps } from './domain-deps.js';
import type { DomainNameRecord, DomainRecord, DomainSummary, DomainView } from './domain-record.js';
import { domainSummaryOf, domainViewOf } from './domain-record.js';
import { isWithin, normalizeHostname } from './hostname.js';
import { parentVerifiedByAnother } from './parent-claims.js';

/** The custom-domain quota of an organization (the plan's `domains`). */
export const domainSlots = slotsOf('domains', C.domains);

/** The verification token: 32 letters and digits (about 190 bits), per domain. */
const TOKEN_LENGTH = 32;

/** A domain of the caller's project. Another tenant's id answers exactly like an unknown one. */
export const loadDomain = async (deps: CoreDeps, principal: Pick<Principal, 'orgId' | 'projectId'>, id: string): Promise<E.Either<DomainError, DomainRecord & StoredDocument>> => {
  const record = (await deps.store.get(C.domains, id)) as (DomainRecord & StoredDocument) | undefined;
  if (record === undefined || record.org_id !== principal.orgId || record.project_id !== principal.projectId) return E.left(domainNotFound(id));
  return E.right(record);
};

/** The hostname to register: normalised, and neither the inbox domain nor under it. */
const registrable = (deps: DomainDeps, raw: string): E.Either<DomainError, string> => {
  const name = normalizeHostname(raw);
  if (!name.ok) return E.left(invalidRequest('The domain is not valid.', [{ path: 'body.domain', message: name.reason }]));
  const reserved = [deps.config.inboxDomain, deps.domains.mxHost].map((d) => d.toLowerCase()).find((d) => isWithin(name.domain, d));
  if (reserved !== undefined) {
    return E.left(invalidRequest('The domain belongs to the service.', [{ path: 'body.domain', message: `${reserved} and its subdomains cannot be registered` }]));
  }
  return E.right(name.domain);
};

/**
 * Claims the hostname for `domainId`: insert-if-absent on the name, so of concurrent
 * registrations of one name exactly one wins. A claim whose domain no longer exists (a removal
 * that stopped between its two writes) is taken over.
 */
const claimName = async (deps: CoreDeps, domain: string, domainId: string): Promise<boolean> => {
  const claim: DomainNameRecord = { id: domain, domain_id: domainId };
  if ((await deps.store.insert(C.domainNames, claim)) === 'inserted') return true;
  const held = (await deps.store.get(C.domainNames, domain)) as (DomainNameRecord & StoredDocument) | undefined;
  if (held === undefined || (await deps.store.get(C.domains, held.domain_id)) !== undefined) return false;
  return deps.store.replace(C.domainNames, claim, held.version);
};

const newRecord = (deps: CoreDeps, principal: Principal, id: string, domain: string): DomainRecord => {
  const now = iso(deps.clock.now());
  return {
    id,
    domain,
    org_id: principal.orgId,
    project_id: principal.projectId,
    status: 'pending_verification',
    token: deps.ids.secret(TOKEN_LENGTH),
    mx_status: 'pending',
    txt_status: 'pending',
    created_at: now,
    updated_at: now,
    verified_at: null,
    checked_at: null,
    last_check: null,
  };
};

/**
 * Writes a registration within the plan's quota: a place in the quota, the domain, then the
 * claim on its name. The domain is written before the claim, so a claim always names a domain
 * that exists or existed; a registration that loses the name takes its domain and place back.
 */
const insertRegistration = async (deps: DomainDeps, principal: Principal, domain: string): Promise<E.Either<DomainError, DomainView>> => {
  const { domains: limit } = await planLimitsOf(deps, principal.orgId);
  const id = deps.ids.next('dom');
  if (!(await domainSlots.reserve(deps, principal.orgId, id, limit))) return E.left(domainQuotaExceeded(limit));
  const record = newRecord(deps, principal, id, domain);
  try {
    await deps.store.insert(C.domains, record);
    if (await claimName(deps, domain, id)) return E.right(domainViewOf(record, deps.domains.mxHost));
  } catch (error) {
    await deps.store.remove(C.domains, id).catch(() => undefined);
    await domainSlots.release(deps, principal.orgId, id);
    throw error;
  }
  await deps.store.remove(C.domains, id);
  await domainSlots.release(deps, principal.orgId, id);
  return E.left(domainAlreadyRegistered(domain));
};

/** Refuses a name under a domain another organization has verified (parent-claims.ts). */
const freeOfOthersZones = (deps: CoreDeps, principal: Principal) => (domain: string) => async (): Promise<E.Either<DomainError, string>> => {
  const parent = await parentVerifiedByAnother(deps, principal.orgId, domain);
  return parent === undefined ? E.right(domain) : E.left(domainAlreadyRegistered(domain, parent));
};

/**
 * Registers a custom domain: `pending_verification`, with the two DNS records to publish. A name
 * under a domain another organization has verified is refused like a registered one.
 */
export const registerDomain =
  (deps: DomainDeps) =>
  (principal: Principal, input: { readonly domain: string }): TE.TaskEither<DomainError, DomainView> =>
    pipe(
      TE.fromEither(registrable(deps, input.domain)),
      TE.flatMap(freeOfOthersZones(deps, principal)),
      TE.flatMap((domain) => () => insertRegistration(deps, principal, domain)),
    );

/** One domain of the caller's project, with its records. */
export const getDomain =
  (deps: DomainDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, DomainView> =>
    pipe(
      () => loadDomain(deps, principal, id),
      TE.map((record) => domainViewOf(record, deps.domains.mxHost)),
    );

/** The project's domains, newest first. */
export const listDomains =
  (deps: CoreDeps) =>
  (principal: Principal, page: { readonly limit: number; readonly offset: number }): TE.TaskEither<DomainError, Page<DomainSummary>> =>
  async () => {
    const where = { org_id: principal.orgId, project_id: principal.projectId };
    return E.right(await findPage(deps.store, C.domains, { where, newestBy: 'created_at' }, page, (doc) => domainSummaryOf(doc as unknown as DomainRecord)));
  };

/**
 * Removes a domain: the domain, then the claim on its name (so it can be registered again, by
 * anyone), then its place in the quota. Identities on it keep their addresses, and so their mail,
 * until they end; no new identity can be made on it.
 */
export const removeDomain =
  (deps: CoreDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, undefined> =>
    pipe(
      () => loadDomain(deps, principal, id),
      TE.flatMap((record) => async () => {
        if (!(await deps.store.remove(C.domains, id))) return E.left(domainNotFound(id));
        const claim = (await deps.store.get(C.domainNames, record.domain)) as (DomainNameRecord & StoredDocument) | undefined;
        if (claim?.domain_id === id) await deps.store.remove(C.domainNames, record.domain, claim.version);
        await domainSlots.release(deps, principal.orgId, id);
        return E.right(undefined);
      }),
    );
