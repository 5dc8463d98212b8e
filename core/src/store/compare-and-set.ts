import type { DocumentStore, NewDocument, StoredDocument, UpdateOutcome } from '../ports/document-store.js';
import { overlay } from './overlay.js';

/** How often a read-modify-write retries after losing a race before it reports contention. */
export const MAX_CAS_ATTEMPTS = 50;

/**
 * The pause after the n-th lost race: exponential with full jitter (up to 0.05 ms × 2^n, at most
 * 20 ms). Without it, writers that lost together retry together and lose together again: with 20
 * concurrent writers on one document nearly every attempt lost, and updates gave up.
 */
const backoff = (attempt: number): Promise<void> => {
  const ceiling = Math.min(20, 0.05 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
};

/** What a change function decides for the document it was given. */
export type Change<T, R> =
  | { readonly kind: 'write'; readonly doc: T; readonly result: R }
  | { readonly kind: 'keep'; readonly result: R };

export const write = <T, R>(doc: T, result: R): Change<T, R> => ({ kind: 'write', doc, result });
export const keep = <T, R>(result: R): Change<T, R> => ({ kind: 'keep', result });

/**
 * `DocumentStore.update` for a backend that cannot hold a document while `change` runs: read,
 * change, compare-and-set, and again after a lost race (with backoff). Throws (infrastructure
 * failure) only after {@link MAX_CAS_ATTEMPTS} lost races.
 */
export const updateByCompareAndSet = async (
  store: Pick<DocumentStore, 'get' | 'replace'>,
  collection: string,
  id: string,
  change: (current: StoredDocument) => NewDocument | undefined,
): Promise<UpdateOutcome | undefined> => {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const current = await store.get(collection, id);
    if (current === undefined) return undefined;
    const next = change(current);
    if (next === undefined) return { doc: current, written: false };
    const { version: _version, ...fields } = next as NewDocument & { version?: number };
    const doc = overlay(fields, { id });
    if (await store.replace(collection, doc, current.version)) {
      return { doc: overlay(doc, { version: current.version + 1 }), written: true };
    }
    await backoff(attempt);
  }
  throw new Error(`contention: ${collection}/${id} changed ${MAX_CAS_ATTEMPTS} times during one update`);
};

/**
 * Read-modify-write of one document through the store's atomic `update`. `change` must be pure:
 * a backend may run it several times; the decision of its last run is the one answered.
 * Answers `undefined` when the document does not exist.
 */
export const updateWithRetry = async <T extends NewDocument, R>(
  store: DocumentStore,
  collection: string,
  id: string,
  change: (current: T & StoredDocument) => Change<T, R>,
): Promise<{ result: R; doc: T; written: boolean } | undefined> => {
  let decision: Change<T, R> | undefined;
  const outcome = await store.update(collection, id, (current) => {
    decision = change(current as T & StoredDocument);
    return decision.kind === 'write' ? decision.doc : undefined;
  });
  if (outcome === undefined || decision === undefined) return undefined;
  if (decision.kind === 'keep') return { result: decision.result, doc: outcome.doc as unknown as T, written: false };
  return { result: decision.result, doc: decision.doc, written: outcome.written };
};

/** Strips the store's `version` from a document read back, leaving the record's own fields. */
export const withoutVersion = <T>(doc: StoredDocument): T => {
  const { version: _version, ...rest } = doc;
  return rest as T;
};
