import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import type { Identity } from '../domain/identity.js';
import { TTL_HOURS, toIdentity } from '../domain/identity.js';
import type { BulkCreateBody } from '../schemas.js';
import { loadIdentity } from './identity-access.js';
import { squashRecord } from './identities.js';
import { inboxDomainOf, provisionIdentities } from './provision-identities.js';

/** Creates a batch of identities all or nothing: within the plan's batch size and quota. */
export const bulkCreateIdentities =
  (deps: CoreDeps) =>
  (principal: Principal, input: BulkCreateBody): TE.TaskEither<DomainError, { items: Identity[] }> =>
  async () => {
    const specs = input.identities.map((item) => ({ label: item.label, ttlHours: item.ttl_hours ?? TTL_HOURS.default }));
    const created = await provisionIdentities(deps, principal, specs, { domain: inboxDomainOf(deps), bulk: true });
    return E.map((records: typeof created extends E.Either<unknown, infer R> ? R : never) => ({
      items: records.map(toIdentity),
    }))(created);
  };

export interface BulkSquashResult {
  readonly squashed: string[];
  readonly failed: { readonly id: string; readonly error: DomainError }[];
}

/** Squashes each listed identity; a failure of one is reported beside the others' success. */
export const bulkSquashIdentities =
  (deps: CoreDeps) =>
  (principal: Principal, ids: readonly string[]): TE.TaskEither<DomainError, BulkSquashResult> =>
  async () => {
    const result: BulkSquashResult = { squashed: [], failed: [] };
    for (const id of new Set(ids)) {
      const loaded = await loadIdentity(deps, principal, id);
      const outcome = E.isLeft(loaded) ? loaded : await squashRecord(deps, loaded.right, 'bulk_squash');
      if (E.isRight(outcome)) result.squashed.push(id);
      else result.failed.push({ id, error: outcome.left });
    }
    return E.right(result);
  };
