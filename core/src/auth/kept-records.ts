import type { CoreDeps } from '../deps.js';
import type { DocumentStore, StoredDocument } from '../ports/document-store.js';

/**
 * Records read through a store handle, with the handle's change mark taken before each read (see
 * `DocumentStore.changeMark`). One map per handle, so every service over the handle shares it
 * and a write through any of them that forgets a record is seen by all. Core keeps API key
 * records here: a host alone on its file reads a key once.
 */
const kept = new WeakMap<DocumentStore, Map<string, { readonly record: StoredDocument; readonly mark: number }>>();
const MOST_KEPT = 10_000;

/**
 * The document, from an earlier read while no other writer changed the store since, read
 * otherwise. The mark is taken before the read, so a change that lands during it makes the next
 * mark differ. A store without marks is read every time.
 */
export const readKept = async (deps: CoreDeps, collection: string, id: string): Promise<StoredDocument | undefined> => {
  const mark = deps.store.changeMark?.();
  if (mark === undefined) return deps.store.get(collection, id);
  let records = kept.get(deps.store);
  if (records === undefined) kept.set(deps.store, (records = new Map()));
  const key = `${collection}/${id}`;
  const hit = records.get(key);
  if (hit !== undefined && hit.mark === mark) return hit.record;
  const record = await deps.store.get(collection, id);
  if (record === undefined) records.delete(key);
  else {
    if (records.size >= MOST_KEPT) records.clear();
    records.set(key, { record, mark });
  }
  return record;
};

/** Forgets a kept document; to be called after writing it through this handle (a revocation). */
export const forgetKept = (deps: CoreDeps, collection: string, id: string): void => {
  kept.get(deps.store)?.delete(`${collection}/${id}`);
};
