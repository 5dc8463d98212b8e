import type { CoreDeps } from '../deps.js';
import type { EventRecord } from '../domain/event.js';
import { C } from '../store/collections.js';
import { withoutVersion } from '../store/compare-and-set.js';
import type { DeploymentRecord } from './deployment-record.js';

/** The events that end a deployment: its identity's first extraction, or its end without one. */
const ENDINGS = new Set(['extraction.completed', 'identity.expired', 'identity.squashed']);

/** The deployment as ended by `event`, or `undefined` when it was ended before. */
const endedBy = (d: DeploymentRecord, event: EventRecord): DeploymentRecord | undefined => {
  if (d.status !== 'active') return undefined;
  if (event.type !== 'extraction.completed') return { ...d, status: 'failed', finished_at: event.occurred_at };
  const seconds = Math.max(0, Math.round((Date.parse(event.occurred_at) - Date.parse(d.created_at)) / 1000));
  return { ...d, status: 'succeeded', finished_at: event.occurred_at, duration_seconds: seconds };
};

/**
 * Adds an ended deployment's outcome to its template's counts, once: the counts are increments
 * (every host shares them), and `counted` marks the deployment after them, so a relay batch
 * handed again after a crash adds what a crash left out (a crash between the increments and the
 * mark counts the outcome twice, which the prior weight makes a small error in a statistic).
 */
const count = async (deps: CoreDeps, d: DeploymentRecord): Promise<void> => {
  if (d.counted || d.status === 'active') return;
  if (d.status === 'succeeded') {
    await deps.store.increment(C.templates, d.template_id, 'outcomes_succeeded', 1);
    await deps.store.increment(C.templates, d.template_id, 'duration_total_seconds', d.duration_seconds ?? 0);
  } else await deps.store.increment(C.templates, d.template_id, 'outcomes_failed', 1);
  await deps.store.update(C.deployments, d.id, (current) => (current.counted === true ? undefined : { ...withoutVersion<DeploymentRecord>(current), counted: true }));
};

/**
 * Ends the deployments of these events' identities: `succeeded` at the first extraction, with
 * the seconds it took; `failed` when the identity expired or was squashed before one. The first
 * ending wins (atomic update), so events handed again change nothing. Answers how many ended.
 */
export const recordOutcomes = async (deps: CoreDeps, events: readonly EventRecord[]): Promise<number> => {
  const relevant = events.filter((e) => ENDINGS.has(e.type));
  if (relevant.length === 0) return 0;
  const identityIds = [...new Set(relevant.map((e) => e.identity_id))];
  const deployments = (await deps.store.find(C.deployments, { where: { identity_id: { in: identityIds } } })) as unknown as DeploymentRecord[];
  let ended = 0;
  for (const deployment of deployments) {
    const event = relevant.find((e) => e.identity_id === deployment.identity_id && endedBy(deployment, e) !== undefined);
    let current: DeploymentRecord = deployment;
    if (event !== undefined) {
      const outcome = await deps.store.update(C.deployments, deployment.id, (stored) => endedBy(withoutVersion<DeploymentRecord>(stored), event));
      if (outcome === undefined) continue;
      current = withoutVersion<DeploymentRecord>(outcome.doc);
      if (outcome.written) ended += 1;
    }
    await count(deps, current);
  }
  return ended;
};
