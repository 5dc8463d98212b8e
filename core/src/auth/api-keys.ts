import * as E from 'fp-ts/lib/Either.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { invalidRequest, notFound } from '../domain/errors.js';
import type { PlanName } from '../domain/plans.js';
import { isScope } from '../domain/scopes.js';
import { iso } from '../domain/time.js';
import { C } from '../store/collections.js';
import { keep, updateWithRetry, write } from '../store/compare-and-set.js';
import { forgetKept } from './kept-records.js';
import { API_KEY_ID_PREFIX, hashSecret } from './secrets.js';
import { ensureOrganization, ensureProject } from './tenancy.js';

export interface ApiKeyRecord {
  readonly id: string;
  readonly org_id: string;
  readonly project_ids: readonly string[];
  readonly scopes: readonly string[];
  readonly name: string;
  /** SHA-256 of the secret part; the key itself is never stored. */
  readonly secret_hash: string;
  readonly created_at: string;
  readonly revoked_at: string | null;
}

/** What a key listing shows: never the secret or its hash. */
export interface ApiKeySummary {
  readonly id: string;
  readonly org_id: string;
  readonly project_ids: readonly string[];
  readonly scopes: readonly string[];
  readonly name: string;
  readonly created_at: string;
  readonly revoked_at: string | null;
}

export const toApiKeySummary = (record: ApiKeyRecord): ApiKeySummary => ({
  id: record.id,
  org_id: record.org_id,
  project_ids: record.project_ids,
  scopes: record.scopes,
  name: record.name,
  created_at: record.created_at,
  revoked_at: record.revoked_at,
});

export interface CreateApiKeyInput {
  readonly orgId: string;
  readonly projectIds: readonly string[];
  readonly scopes: readonly string[];
  readonly name?: string;
  /** Plan of the organization when it does not exist yet. Default `starter`. */
  readonly plan?: PlanName;
  /**
   * A key to register instead of a random one (bootstrap in development). Must have the
   * `aid_<16 alphanumerics>_<40 alphanumerics>` shape.
   */
  readonly presetKey?: string;
}

const validateKeyInput = (input: CreateApiKeyInput): E.Either<DomainError, CreateApiKeyInput> => {
  const unknown = input.scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0) {
    return E.left(invalidRequest('Unknown scopes.', [{ path: 'scopes', message: `unknown: ${unknown.join(', ')}` }]));
  }
  if (input.projectIds.length === 0) {
    return E.left(invalidRequest('A key needs at least one project.', [{ path: 'projects', message: 'empty' }]));
  }
  return E.right(input);
};

/**
 * Creates an API key bound to one organization and one or more projects, creating the
 * organization and projects when they do not exist. Answers the key once, with its record.
 */
export const createApiKey = async (
  deps: CoreDeps,
  input: CreateApiKeyInput,
): Promise<E.Either<DomainError, { key: string; record: ApiKeyRecord }>> => {
  const valid = validateKeyInput(input);
  if (E.isLeft(valid)) return valid;
  for (const projectId of input.projectIds) {
    const existing = (await deps.store.get(C.projects, projectId)) as { org_id?: string } | undefined;
    if (existing !== undefined && existing.org_id !== input.orgId) {
      return E.left(invalidRequest('Project belongs to another organization.', [{ path: 'projects', message: projectId }]));
    }
  }
  await ensureOrganization(deps, { id: input.orgId, plan: input.plan ?? 'starter' });
  for (const projectId of input.projectIds) {
    if ((await ensureProject(deps, { id: projectId, orgId: input.orgId })) === 'other_org') {
      return E.left(invalidRequest('Project belongs to another organization.', [{ path: 'projects', message: projectId }]));
    }
  }
  const preset = input.presetKey?.split('_');
  const shortId = preset?.[1] ?? deps.ids.secret(16);
  const secret = preset?.[2] ?? deps.ids.secret(40);
  const record: ApiKeyRecord = {
    id: `${API_KEY_ID_PREFIX}_${shortId}`,
    org_id: input.orgId,
    project_ids: [...new Set(input.projectIds)],
    scopes: [...new Set(input.scopes)],
    name: input.name ?? 'api key',
    secret_hash: hashSecret(secret),
    created_at: iso(deps.clock.now()),
    revoked_at: null,
  };
  if ((await deps.store.insert(C.apiKeys, record)) === 'exists') {
    const existing = (await deps.store.get(C.apiKeys, record.id)) as unknown as ApiKeyRecord;
    if (preset !== undefined && existing.secret_hash === record.secret_hash) return E.right({ key: input.presetKey!, record: existing });
    return E.left(invalidRequest('A key with this id exists already.', [{ path: 'key', message: 'exists' }]));
  }
  return E.right({ key: `aid_${shortId}_${secret}`, record });
};

/** Keys of an organization (or all keys), newest first. */
export const listApiKeys = async (deps: CoreDeps, orgId?: string): Promise<ApiKeySummary[]> => {
  const docs = await deps.store.find(C.apiKeys, {
    where: orgId === undefined ? {} : { org_id: orgId },
    sort: { field: 'created_at', direction: 'desc' },
  });
  return docs.map((doc) => toApiKeySummary(doc as unknown as ApiKeyRecord));
};

/** Revokes a key; its access tokens stop working too. Revoking twice keeps the first time. */
export const revokeApiKey = async (deps: CoreDeps, keyId: string): Promise<E.Either<DomainError, ApiKeySummary>> => {
  const now = iso(deps.clock.now());
  const outcome = await updateWithRetry<ApiKeyRecord, ApiKeyRecord>(deps.store, C.apiKeys, keyId, (current) =>
    current.revoked_at !== null ? keep(current) : write({ ...current, revoked_at: now }, { ...current, revoked_at: now }),
  );
  // Before answering: the next request with this key must read the revocation.
  forgetKept(deps, C.apiKeys, keyId);
  return outcome === undefined ? E.left(notFound('api_key', keyId)) : E.right(toApiKeySummary(outcome.result));
};
