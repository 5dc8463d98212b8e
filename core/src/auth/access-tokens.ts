import * as E from 'fp-ts/lib/Either.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { forbidden } from '../domain/errors.js';
import { iso, isoPlus } from '../domain/time.js';
import { C } from '../store/collections.js';
import type { Principal } from './principal.js';
import { ACCESS_TOKEN_ID_PREFIX, hashSecret } from './secrets.js';

export interface AccessTokenRecord {
  readonly id: string;
  readonly key_id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly scopes: readonly string[];
  readonly secret_hash: string;
  readonly created_at: string;
  readonly expires_at: string;
}

export const ACCESS_TOKEN_TTL = { min: 60, max: 86_400, default: 3_600 } as const;

export interface IssuedAccessToken {
  readonly access_token: string;
  readonly expires_at: string;
  readonly scopes: readonly string[];
}

/** A token minted from a token never outlives it. */
const earliest = (wanted: string, limit: string | undefined): string => (limit !== undefined && limit < wanted ? limit : wanted);

/**
 * Swaps the caller's credential for a short-lived token bound to the caller's project, with a
 * subset of its scopes (403 forbidden for any scope it does not hold). Stored hashed.
 */
export const exchangeToken = async (
  deps: CoreDeps,
  principal: Principal,
  input: { readonly scopes: readonly string[]; readonly ttl_seconds: number },
): Promise<E.Either<DomainError, IssuedAccessToken>> => {
  const beyond = input.scopes.filter((scope) => !principal.scopes.includes(scope));
  if (beyond.length > 0) return E.left(forbidden(beyond, 'Requested scopes exceed those of the credential.'));
  const now = deps.clock.now();
  const shortId = deps.ids.secret(16);
  const secret = deps.ids.secret(40);
  const scopes = [...new Set(input.scopes)];
  const record: AccessTokenRecord = {
    id: `${ACCESS_TOKEN_ID_PREFIX}_${shortId}`,
    key_id: principal.credential.keyId,
    org_id: principal.orgId,
    project_id: principal.projectId,
    scopes,
    secret_hash: hashSecret(secret),
    created_at: iso(now),
    expires_at: earliest(isoPlus(now, input.ttl_seconds * 1000), principal.credential.expiresAt),
  };
  await deps.store.insert(C.accessTokens, record);
  return E.right({ access_token: `eat_${shortId}_${secret}`, expires_at: record.expires_at, scopes });
};
