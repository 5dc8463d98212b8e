import type { CoreDeps } from '../deps.js';
import type { DnsRecords } from './ports.js';

/** What the domain use cases need beyond the core's deps. */
export interface DomainDeps extends CoreDeps {
  readonly domains: {
    /** The DNS lookups of verification. */
    readonly dns: DnsRecords;
    /** The host custom domains' MX records point to (`MX_HOST`). */
    readonly mxHost: string;
  };
}
