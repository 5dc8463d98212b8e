import type { CoreDeps } from '../deps.js';
import { iso } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';

/**
 * How long a claim on a callback holds before a later delivery of the same callback may take it
 * over: long enough for any handling to finish, short against a provider's retry schedule (hours).
 */
export const CALLBACK_CLAIM_MS = 60_000;

/**
 * A provider event, claimed by the delivery that applies it (id = `<provider>:<event id>`).
 * Records written before claims existed have no `state`: they were handled.
 */
interface ProviderEventRecord {
  readonly id: string;
  readonly type: string;
  readonly state?: 'applying' | 'handled';
  readonly claimed_at?: string;
  readonly handled_at: string | null;
}

/**
 * `claimed`: this delivery applies the event. `duplicate`: it was applied. `in_progress`:
 * another delivery is applying it right now (the provider should send it again later, in case
 * that one fails).
 */
export type Claim = { readonly kind: 'claimed'; readonly release: () => Promise<void>; readonly done: () => Promise<void> } | { readonly kind: 'duplicate' | 'in_progress' };

const claimed = (deps: CoreDeps, record: ProviderEventRecord, version: number): Claim => ({
  kind: 'claimed',
  // Handling failed or was deferred: the claim goes, so the provider's next delivery applies it.
  release: async () => {
    await deps.store.remove(C.providerEvents, record.id, version);
  },
  done: async () => {
    await deps.store.replace(C.providerEvents, { ...record, state: 'handled', handled_at: iso(deps.clock.now()) }, version);
  },
});

/**
 * Claims a provider event for this delivery: insert-if-absent on the event's one record, so of
 * two deliveries of one callback at the same moment exactly one applies it. A claim left by a
 * delivery that died while applying is taken over (compare-and-set) once it is older than
 * {@link CALLBACK_CLAIM_MS}.
 */
export const claimProviderEvent = async (deps: CoreDeps, id: string, type: string): Promise<Claim> => {
  const now = deps.clock.now();
  const record: ProviderEventRecord = { id, type, state: 'applying', claimed_at: iso(now), handled_at: null };
  if ((await deps.store.insert(C.providerEvents, record)) === 'inserted') return claimed(deps, record, 1);
  const held = (await deps.store.get(C.providerEvents, id)) as (ProviderEventRecord & StoredDocument) | undefined;
  if (held === undefined) return { kind: 'in_progress' };
  if (held.state !== 'applying') return { kind: 'duplicate' };
  if (Date.parse(held.claimed_at ?? '') + CALLBACK_CLAIM_MS > now.getTime()) return { kind: 'in_progress' };
  return (await deps.store.replace(C.providerEvents, record, held.version)) ? claimed(deps, record, held.version + 1) : { kind: 'in_progress' };
};
