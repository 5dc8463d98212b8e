import type { Clock } from '../ports/clock.js';
import type { DocumentStore } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import type { WebhookRecord } from './endpoint.js';

/** Endpoint records as a delivery worker reads them (see {@link createEndpointCache}). */
export interface EndpointCache {
  /** The endpoint, read from the store at most `ttlMs` ago; `undefined` when it does not exist. */
  get(id: string): Promise<WebhookRecord | undefined>;
  /** Remembers a record just read elsewhere (the dispatcher's), so the attempt needs no read. */
  put(record: WebhookRecord): void;
}

/**
 * Every attempt needs its endpoint's URL and sealed secrets. Reading them once per attempt would
 * add a read per delivery; reading them once per worker tick (as before) let a long tick use a
 * record of any age. Here a record is reused for `ttlMs` of the injected clock at most, so a
 * change (URL, subscription, rotation, removal) reaches every worker within that bound. This is
 * a cache of the store, never a source of truth: each process reads for itself.
 */
export const createEndpointCache = (store: DocumentStore, clock: Clock, ttlMs: number, capacity = 4096): EndpointCache => {
  const entries = new Map<string, { readonly at: number; readonly record: Promise<WebhookRecord | undefined> }>();
  const remember = (id: string, record: Promise<WebhookRecord | undefined>) => {
    if (entries.size >= capacity) entries.clear();
    entries.set(id, { at: clock.now().getTime(), record });
    return record;
  };
  return {
    get: (id) => {
      const found = entries.get(id);
      if (found !== undefined && clock.now().getTime() - found.at <= ttlMs) return found.record;
      const read = store.get(C.webhooks, id) as Promise<WebhookRecord | undefined>;
      // A failed read is not remembered: the next attempt reads again.
      read.catch(() => entries.get(id)?.record === read && entries.delete(id));
      return remember(id, read);
    },
    put: (record) => void remember(record.id, Promise.resolve(record)),
  };
};
