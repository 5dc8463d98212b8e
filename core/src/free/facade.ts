import type { CoreDeps } from '../deps.js';
import { run } from '../use-cases/run.js';
import type { FreeDeps, FreeSettings } from './free-identities.js';
import { createFreeIdentity, FREE_GRANT_AUDIENCE, getFreeExtraction, getFreeIdentity } from './free-identities.js';
import { mintGrant } from './grants.js';

export const freeDeps = (deps: CoreDeps, settings: Partial<FreeSettings> = {}): FreeDeps => ({
  ...deps,
  free: {
    orgId: settings.orgId ?? 'org_free',
    projectId: settings.projectId ?? 'proj_free',
    requestsPerMinute: settings.requestsPerMinute ?? 10,
    ...(settings.grantSecret === undefined ? {} : { grantSecret: settings.grantSecret }),
  },
});

/** The `free` section: anonymous identities read with their token. */
export const freeFacade = (deps: FreeDeps) => ({
  create: run(createFreeIdentity(deps)),
  get: run(getFreeIdentity(deps)),
  /** The latest extraction, redacted (the token holds no `secrets:read`: `reveal: true` is `Forbidden`). */
  extraction: run(getFreeExtraction(deps)),
  /** Whether creation needs a grant (the host has a grant secret). */
  grantRequired: deps.free.grantSecret !== undefined,
  /** Mints a one-time anonymous grant for the creation route (server-side only). */
  mintGrant: (ttlMs?: number) => {
    if (deps.free.grantSecret === undefined) throw new Error('no grant secret is configured');
    return mintGrant(deps, deps.free.grantSecret, { audience: FREE_GRANT_AUDIENCE, orgId: deps.free.orgId, projectId: deps.free.projectId }, ttlMs);
  },
});
