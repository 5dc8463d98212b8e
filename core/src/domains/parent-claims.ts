import type { CoreDeps } from '../deps.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import type { DomainNameRecord, DomainRecord } from './domain-record.js';

/** The registrable names above a hostname: `a.b.example.com` → `b.example.com`, `example.com`. */
export const parentsOf = (domain: string): string[] => {
  const labels = domain.split('.');
  return labels.slice(1, -1).map((_, i) => labels.slice(i + 1).join('.'));
};

/**
 * The nearest name above `domain` that another organization has verified, if any: proven control
 * of a zone covers the names under it, so no one else may register one there (ADR 0046). A name
 * only pending above does not count (else registering a parent would squat a zone), and the
 * organization's own verified parents do not either.
 */
export const parentVerifiedByAnother = async (deps: CoreDeps, orgId: string, domain: string): Promise<string | undefined> => {
  const holders = await Promise.all(
    parentsOf(domain).map(async (parent) => {
      const claim = (await deps.store.get(C.domainNames, parent)) as (DomainNameRecord & StoredDocument) | undefined;
      const record = claim === undefined ? undefined : ((await deps.store.get(C.domains, claim.domain_id)) as DomainRecord | undefined);
      return record?.status === 'verified' && record.org_id !== orgId ? parent : undefined;
    }),
  );
  return holders.find((parent) => parent !== undefined);
};
