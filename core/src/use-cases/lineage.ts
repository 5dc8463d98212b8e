import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { identityAlreadySquashed, identityExpired, lineageDepthExceeded } from '../domain/errors.js';
import type { Identity, IdentityRecord, IdentityStatus } from '../domain/identity.js';
import { isLive, MAX_LINEAGE_DEPTH, toIdentity } from '../domain/identity.js';
import type { CreateChildBody } from '../schemas.js';
import { C } from '../store/collections.js';
import { loadIdentity } from './identity-access.js';
import { squashRecord } from './identities.js';
import { provisionIdentities } from './provision-identities.js';

/** One node of a lineage tree. */
export interface LineageNode {
  readonly id: string;
  readonly parent_id: string | null;
  readonly email: string;
  readonly status: IdentityStatus;
  readonly depth: number;
}

export interface Lineage {
  readonly root: string;
  readonly nodes: readonly LineageNode[];
}

/** The most nodes one lineage answer lists. */
const MAX_TREE = 1000;

const requireLiveParent = (parent: IdentityRecord): E.Either<DomainError, IdentityRecord> => {
  if (parent.status === 'squashed') return E.left(identityAlreadySquashed(parent.id));
  if (!isLive(parent.status)) return E.left(identityExpired(parent.id));
  if (parent.depth + 1 > MAX_LINEAGE_DEPTH) return E.left(lineageDepthExceeded(MAX_LINEAGE_DEPTH));
  return E.right(parent);
};

/**
 * Creates a child of a live identity on the parent's domain. Its TTL defaults to the parent's
 * and is capped so the child never outlives its parent.
 */
export const createChild =
  (deps: CoreDeps) =>
  (principal: Principal, parentId: string, input: CreateChildBody): TE.TaskEither<DomainError, Identity> =>
    pipe(
      () => loadIdentity(deps, principal, parentId),
      TE.flatMap((parent) => TE.fromEither(requireLiveParent(parent))),
      TE.flatMap((parent) => () => {
        const spec = { label: input.label, ttlHours: input.ttl_hours ?? parent.ttl_hours };
        return provisionIdentities(deps, principal, [spec], { domain: parent.email.split('@')[1]!, parent });
      }),
      TE.map(([child]) => toIdentity(child!)),
    );

const treeOf = async (deps: CoreDeps, record: IdentityRecord): Promise<IdentityRecord[]> =>
  (await deps.store.find(C.identities, {
    where: { root_id: record.root_id, org_id: record.org_id, project_id: record.project_id },
    sort: { field: 'depth', direction: 'asc' },
    limit: MAX_TREE,
  })) as unknown as IdentityRecord[];

/** The whole tree the identity belongs to: its root and every descendant of the root. */
export const getLineage =
  (deps: CoreDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, Lineage> =>
    pipe(
      () => loadIdentity(deps, principal, id),
      TE.flatMap((record) => TE.fromTask(() => treeOf(deps, record))),
      TE.map((tree) => ({
        root: tree[0]?.root_id ?? id,
        nodes: tree.map(({ id: nodeId, parent_id, email, status, depth }) => ({ id: nodeId, parent_id, email, status, depth })),
      })),
    );

/** Ids of every descendant of `parent` within its tree, parents before their children. */
const descendantsOf = (parent: IdentityRecord, tree: readonly IdentityRecord[]): IdentityRecord[] => {
  const inside = new Set([parent.id]);
  const found: IdentityRecord[] = [];
  for (const node of tree) {
    if (node.parent_id !== null && inside.has(node.parent_id)) {
      inside.add(node.id);
      found.push(node);
    }
  }
  return found;
};

/** Squashes every live descendant of the identity; those already squashed or expired are left. */
export const revokeChildren =
  (deps: CoreDeps) =>
  (principal: Principal, parentId: string): TE.TaskEither<DomainError, { parent_id: string; squashed: string[] }> =>
    pipe(
      () => loadIdentity(deps, principal, parentId),
      TE.flatMap((parent) => async () => {
        const squashed: string[] = [];
        for (const child of descendantsOf(parent, await treeOf(deps, parent))) {
          if (!isLive(child.status)) continue;
          if (E.isRight(await squashRecord(deps, child, 'revoke_children'))) squashed.push(child.id);
        }
        return E.right({ parent_id: parent.id, squashed });
      }),
    );
