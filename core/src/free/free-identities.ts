import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import { decideReveal, type RevealOption } from '../auth/reveal.js';
import { hashSecret, secretMatches } from '../auth/secrets.js';
import { ensureOrganization, ensureProject } from '../auth/tenancy.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { freeIdentityExpired, identityNotFound, invalidToken, ipLimitReached, rateLimited } from '../domain/errors.js';
import type { IdentityRecord } from '../domain/identity.js';
import { iso, isoPlus } from '../domain/time.js';
import { redact } from '../extraction/redact.js';
import type { SecretType } from '../extraction/types.js';
import type { ExtractionRecord } from '../mail/extraction-record.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { addToCounter } from '../store/counter.js';
import { inboxDomainOf, provisionIdentities } from '../use-cases/provision-identities.js';
import { redeemGrant, type GrantAudience } from './grants.js';

/** The free tier's settings. */
export interface FreeSettings {
  /** Where free identities live: an organization and project no API key of a customer sees. */
  readonly orgId: string;
  readonly projectId: string;
  /** Signs anonymous grants; with one, creation requires `X-Anon-Grant`. */
  readonly grantSecret?: Buffer;
  /** Requests per minute per client address. Default 10. */
  readonly requestsPerMinute?: number;
}

export interface FreeDeps extends CoreDeps {
  readonly free: Required<Omit<FreeSettings, 'grantSecret'>> & Pick<FreeSettings, 'grantSecret'>;
}

export const FREE_GRANT_AUDIENCE = 'ephemail:free-identity';
const FREE_TTL_HOURS = 24;
const POLL_AFTER_SECONDS = 2;

interface FreeIdentityRecord {
  readonly id: string;
  readonly identity_id: string;
  readonly email: string;
  readonly label: string | null;
  readonly token_hash: string;
  readonly created_at: string;
  readonly expires_at: string;
}

/** The client address as stored: a digest, so the store never holds visitors' addresses. */
const ipKey = (ip: string): string => createHash('sha256').update(`ephemail free ip\n${ip}`).digest('base64url').slice(0, 32);

/**
 * At most `requestsPerMinute` requests per client address and minute, counted in the store (one
 * bounded increment), so every host enforces one limit. Answers the seconds to wait when over.
 */
export const freeRateLimit = async (deps: FreeDeps, ip: string): Promise<E.Either<DomainError, true>> => {
  const now = deps.clock.now();
  const minute = Math.floor(now.getTime() / 60_000);
  const counted = await addToCounter(deps, `freerate:${ipKey(ip)}:${minute}`, 1, { max: deps.free.requestsPerMinute }, iso(new Date((minute + 1) * 60_000)));
  if (counted !== 'over_max') return E.right(true);
  return E.left(rateLimited(Math.max(1, Math.ceil(((minute + 1) * 60_000 - now.getTime()) / 1000))));
};

/**
 * Takes the client address's one place: insert-if-absent on the address, so of concurrent
 * creations from one address exactly one gets it; a place whose identity has expired is taken
 * over by compare-and-set.
 */
const claimAddressPlace = async (deps: FreeDeps, ip: string, freeId: string, expiresAt: string): Promise<boolean> => {
  const id = `freeip:${ipKey(ip)}`;
  const place = { id, free_id: freeId, expires_at: expiresAt };
  if ((await deps.store.insert(C.expiring, place)) === 'inserted') return true;
  const held = (await deps.store.get(C.expiring, id)) as (typeof place & StoredDocument) | undefined;
  if (held === undefined || held.expires_at > iso(deps.clock.now())) return false;
  return deps.store.replace(C.expiring, place, held.version);
};

const releaseAddressPlace = async (deps: FreeDeps, ip: string, freeId: string): Promise<void> => {
  const id = `freeip:${ipKey(ip)}`;
  const held = await deps.store.get(C.expiring, id);
  if (held?.free_id === freeId) await deps.store.remove(C.expiring, id, held.version);
};

const freePrincipal = (deps: FreeDeps): Principal => ({
  orgId: deps.free.orgId,
  projectId: deps.free.projectId,
  scopes: ['identities:write'],
  credential: { kind: 'api_key', id: 'free-tier', keyId: 'free-tier' },
});

const audienceOf = (deps: FreeDeps): GrantAudience => ({ audience: FREE_GRANT_AUDIENCE, orgId: deps.free.orgId, projectId: deps.free.projectId });

/**
 * Creates the client address's one free identity (24 hours on the inbox domain): rate limit,
 * grant (when the host has a grant secret), the address's place, then the identity. The token
 * to read it is answered once; only its hash is stored.
 */
export const createFreeIdentity =
  (deps: FreeDeps) =>
  (input: { readonly label?: string; readonly clientIp: string; readonly grant?: string }): TE.TaskEither<DomainError, Record<string, unknown>> =>
  async () => {
    const limited = await freeRateLimit(deps, input.clientIp);
    if (E.isLeft(limited)) return limited;
    if (deps.free.grantSecret !== undefined) {
      const granted = await redeemGrant(deps, deps.free.grantSecret, input.grant, audienceOf(deps));
      if (E.isLeft(granted)) return granted;
    }
    const id = deps.ids.next('free');
    const now = deps.clock.now();
    const expires = isoPlus(now, FREE_TTL_HOURS * 3_600_000);
    if (!(await claimAddressPlace(deps, input.clientIp, id, expires))) return E.left(ipLimitReached());
    await ensureOrganization(deps, { id: deps.free.orgId, plan: 'enterprise', name: 'free tier' });
    await ensureProject(deps, { id: deps.free.projectId, orgId: deps.free.orgId, name: 'free tier' });
    const made = await provisionIdentities(deps, freePrincipal(deps), [{ label: input.label ?? 'free', ttlHours: FREE_TTL_HOURS }], { domain: inboxDomainOf(deps) });
    if (E.isLeft(made)) {
      await releaseAddressPlace(deps, input.clientIp, id);
      return made;
    }
    const identity = made.right[0]!;
    const token = `ftok_${deps.ids.secret(40)}`;
    const record: FreeIdentityRecord = { id, identity_id: identity.id, email: identity.email, label: input.label ?? null, token_hash: hashSecret(token), created_at: iso(now), expires_at: identity.expires_at };
    await deps.store.insert(C.freeIdentities, record);
    return E.right({ id, email: record.email, label: record.label, token, status: identity.status, expires_at: record.expires_at });
  };

/** The free identity the token opens: rate limit, then 404 / 401 / 410, in that order. */
const opened = async (deps: FreeDeps, id: string, token: string, clientIp: string): Promise<E.Either<DomainError, { record: FreeIdentityRecord; identity: IdentityRecord }>> => {
  const limited = await freeRateLimit(deps, clientIp);
  if (E.isLeft(limited)) return limited;
  const record = (await deps.store.get(C.freeIdentities, id)) as FreeIdentityRecord | undefined;
  if (record === undefined) return E.left(identityNotFound(id));
  if (!secretMatches(token, record.token_hash)) return E.left(invalidToken());
  const identity = (await deps.store.get(C.identities, record.identity_id)) as IdentityRecord | undefined;
  if (identity === undefined || identity.status === 'expired' || identity.status === 'squashed' || record.expires_at <= iso(deps.clock.now())) {
    return E.left(freeIdentityExpired(id));
  }
  return E.right({ record, identity });
};

export const getFreeIdentity =
  (deps: FreeDeps) =>
  (id: string, token: string, clientIp: string): TE.TaskEither<DomainError, Record<string, unknown>> =>
  async () =>
    E.map(({ record, identity }: { record: FreeIdentityRecord; identity: IdentityRecord }) => ({
      id: record.id,
      email: record.email,
      label: record.label,
      status: identity.status,
      expires_at: record.expires_at,
    }))(await opened(deps, id, token, clientIp));

/** The free tier's extraction record (the spec's): `pending` until a secret arrives, then redacted. */
export type FreeExtraction =
  | { readonly status: 'pending'; readonly retryAfterSeconds: number }
  | {
      readonly status: 'ready';
      readonly type: SecretType;
      readonly has_secret: true;
      readonly redacted_value: string;
      readonly extracted_at: string;
      readonly confidence: number;
    };

/** What a free identity's token grants: reading that identity, and no scope (so never `secrets:read`). */
const TOKEN_HOLDER: Pick<Principal, 'scopes'> = { scopes: [] };

/**
 * The free identity's latest extraction, redacted: `pending` (202) until one exists. The token
 * holds no `secrets:read`, so asking to reveal is `Forbidden`, decided like every other reveal
 * and before anything is read or counted.
 */
export const getFreeExtraction =
  (deps: FreeDeps) =>
  (id: string, token: string, clientIp: string, options?: RevealOption): TE.TaskEither<DomainError, FreeExtraction> =>
  async () => {
    const refused = decideReveal(TOKEN_HOLDER, options);
    if (E.isLeft(refused)) return refused;
    const found = await opened(deps, id, token, clientIp);
    if (E.isLeft(found)) return found;
    const extractionId = found.right.identity.latest_extraction_id;
    const extraction = extractionId === null || extractionId === undefined ? undefined : ((await deps.store.get(C.extractions, extractionId)) as ExtractionRecord | undefined);
    if (extraction === undefined) return E.right({ status: 'pending', retryAfterSeconds: POLL_AFTER_SECONDS });
    return E.right({
      status: 'ready',
      type: extraction.type,
      has_secret: true,
      redacted_value: redact(extraction),
      extracted_at: extraction.extracted_at,
      confidence: Math.round(extraction.confidence * 100) / 100,
    });
  };
