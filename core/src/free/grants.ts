import { createHmac, timingSafeEqual } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { forbidden, grantExpired, grantReplayed, unauthorized } from '../domain/errors.js';
import { iso, isoPlus } from '../domain/time.js';
import { C } from '../store/collections.js';

/** What a grant is for: the free tier's creation route, in one organization and project. */
export interface GrantAudience {
  readonly audience: string;
  readonly orgId: string;
  readonly projectId: string;
}

/** How long a grant may be used after it was minted: long enough for a page to call the API. */
export const GRANT_TTL_MS = 5 * 60_000;

interface GrantClaims {
  readonly aud: string;
  readonly org: string;
  readonly proj: string;
  readonly jti: string;
  readonly exp: number;
}

const mac = (secret: Buffer, body: string): Buffer => createHmac('sha256', secret).update(`ephemail anon grant\n${body}`).digest();

/**
 * Mints an anonymous grant on the server (a page's backend, or `ephemail grants mint`): opaque
 * to the client, signed, one-time, short-lived, bound to audience, organization and project.
 */
export const mintGrant = (deps: CoreDeps, secret: Buffer, to: GrantAudience, ttlMs = GRANT_TTL_MS): { grant: string; expires_at: string } => {
  const now = deps.clock.now();
  const claims: GrantClaims = { aud: to.audience, org: to.orgId, proj: to.projectId, jti: deps.ids.secret(24), exp: now.getTime() + ttlMs };
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { grant: `agr_${body}.${mac(secret, body).toString('base64url')}`, expires_at: isoPlus(now, ttlMs) };
};

/**
 * Checks a presented grant and uses it up: missing → `unauthorized`; bad format, signature,
 * audience, organization or project → `forbidden`; past its time → `grant_expired`; used before
 * → `grant_replayed` (an insert-if-absent of its id, so of concurrent uses exactly one passes).
 * The grant is taken exactly as sent, never trimmed.
 */
export const redeemGrant = async (deps: CoreDeps, secret: Buffer, presented: string | undefined, expected: GrantAudience): Promise<E.Either<DomainError, true>> => {
  if (presented === undefined || presented === '') return E.left(unauthorized('X-Anon-Grant is required.'));
  const refused = E.left(forbidden([], 'The anonymous grant is not valid.'));
  const match = /^agr_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(presented);
  if (match === null) return refused;
  const [, body, signature] = match as unknown as [string, string, string];
  const expectedMac = mac(secret, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expectedMac.length || !timingSafeEqual(given, expectedMac)) return refused;
  let claims: GrantClaims;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as GrantClaims;
  } catch {
    return refused;
  }
  if (claims.aud !== expected.audience || claims.org !== expected.orgId || claims.proj !== expected.projectId) return refused;
  if (claims.exp <= deps.clock.now().getTime()) return E.left(grantExpired());
  const use = { id: `grant:${claims.jti}`, used_at: iso(deps.clock.now()), expires_at: new Date(claims.exp).toISOString() };
  // Kept until the grant's own expiry: after it, the grant is refused as expired before this check.
  return (await deps.store.insert(C.expiring, use)) === 'inserted' ? E.right(true) : E.left(grantReplayed());
};
