import * as E from 'fp-ts/lib/Either.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { invalidRequest, scopeMismatch, unauthorized } from '../domain/errors.js';
import { iso } from '../domain/time.js';
import { C } from '../store/collections.js';
import type { ApiKeyRecord } from './api-keys.js';
import type { AccessTokenRecord } from './access-tokens.js';
import { readKept } from './kept-records.js';
import type { Principal } from './principal.js';
import { ACCESS_TOKEN_ID_PREFIX, API_KEY_ID_PREFIX, DECOY_HASH, parseCredential, secretMatches } from './secrets.js';

export interface CredentialInput {
  /** The value of `Authorization`, e.g. `Bearer aid_...`; undefined when absent. */
  readonly authorization: string | undefined;
  readonly orgId: string | undefined;
  readonly projectId: string | undefined;
  /**
   * `optional`: a request that sends neither tenant header is answered for the credential's
   * organization, with `projectId` its only project ('' when it covers several). Only the
   * profile route (`/v1/me`) allows it, so a client holding just a key can learn its tenant.
   */
  readonly tenant?: 'required' | 'optional';
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Loads the key behind a credential and checks its secret in constant time. */
const verify = async (
  deps: CoreDeps,
  presented: string,
): Promise<{ key: ApiKeyRecord; token?: AccessTokenRecord } | undefined> => {
  const parsed = parseCredential(presented);
  if (parsed === undefined) return undefined;
  if (parsed.kind === 'api_key') {
    const key = (await readKept(deps, C.apiKeys, `${API_KEY_ID_PREFIX}_${parsed.id}`)) as ApiKeyRecord | undefined;
    const ok = secretMatches(parsed.secret, key?.secret_hash ?? DECOY_HASH) && key !== undefined;
    return ok && key.revoked_at === null ? { key } : undefined;
  }
  const token = (await deps.store.get(C.accessTokens, `${ACCESS_TOKEN_ID_PREFIX}_${parsed.id}`)) as
    | AccessTokenRecord
    | undefined;
  const ok = secretMatches(parsed.secret, token?.secret_hash ?? DECOY_HASH) && token !== undefined;
  if (!ok || token.expires_at <= iso(deps.clock.now())) return undefined;
  const key = (await deps.store.get(C.apiKeys, token.key_id)) as ApiKeyRecord | undefined;
  return key !== undefined && key.revoked_at === null ? { key, token } : undefined;
};

/**
 * Resolves the caller from the credential, then checks the org and project headers against it:
 * 401 for a missing or invalid credential, 400 for missing headers, 403 scope mismatch when the
 * headers name another org or a project the credential does not cover.
 */
export const authenticate = async (deps: CoreDeps, input: CredentialInput): Promise<E.Either<DomainError, Principal>> => {
  const presented = input.authorization === undefined ? undefined : BEARER.exec(input.authorization)?.[1];
  if (presented === undefined) return E.left(unauthorized());
  const verified = await verify(deps, presented);
  if (verified === undefined) return E.left(unauthorized());
  const { key, token } = verified;
  const projects = token === undefined ? key.project_ids : [token.project_id];
  const principalFor = (projectId: string): Principal => ({
    orgId: key.org_id,
    projectId,
    scopes: token?.scopes ?? key.scopes,
    projects,
    credential: { kind: token ? 'access_token' : 'api_key', id: token?.id ?? key.id, keyId: key.id, expiresAt: token?.expires_at },
  });
  if (input.tenant === 'optional' && !input.orgId && !input.projectId) {
    return E.right(principalFor(projects.length === 1 ? projects[0]! : ''));
  }
  const missing = [
    ...(input.orgId ? [] : [{ path: 'X-Org-Id', message: 'required header' }]),
    ...(input.projectId ? [] : [{ path: 'X-Project-Id', message: 'required header' }]),
  ];
  if (missing.length > 0) return E.left(invalidRequest('Missing tenant headers.', missing));
  if (input.orgId !== key.org_id || !projects.includes(input.projectId!)) {
    return E.left(scopeMismatch('X-Org-Id or X-Project-Id differs from the scope of the credential.'));
  }
  return E.right(principalFor(input.projectId!));
};
