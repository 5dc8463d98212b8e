import type { CoreDeps } from '../deps.js';
import { iso, isoPlus } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from './collections.js';

interface LeaseRecord {
  readonly id: string;
  readonly owner: string;
  readonly until: string;
}

/**
 * Takes or renews the named lease for `owner` for `ttlMs`. Answers whether `owner` holds it now.
 * A lease whose holder stopped renewing passes to the next asker after it runs out.
 */
export const acquireLease = async (deps: CoreDeps, name: string, owner: string, ttlMs: number): Promise<boolean> => {
  const now = deps.clock.now();
  const lease: LeaseRecord = { id: name, owner, until: isoPlus(now, ttlMs) };
  if ((await deps.store.insert(C.leases, lease)) === 'inserted') return true;
  const current = (await deps.store.get(C.leases, name)) as (LeaseRecord & StoredDocument) | undefined;
  if (current === undefined) return false;
  if (current.owner !== owner && current.until > iso(now)) return false;
  // A holder with more than half its term left keeps the lease without a write: relays tick
  // many times a second, and each renewal would compete with requests for the store's writer.
  if (current.owner === owner && current.until > isoPlus(now, ttlMs / 2)) return true;
  return deps.store.replace(C.leases, lease, current.version);
};

/** Gives the lease up at once, if `owner` holds it. */
export const releaseLease = async (deps: CoreDeps, name: string, owner: string): Promise<void> => {
  const current = (await deps.store.get(C.leases, name)) as (LeaseRecord & StoredDocument) | undefined;
  if (current?.owner === owner) await deps.store.remove(C.leases, name, current.version);
};
