import type { CoreDeps } from '../deps.js';
import { run } from '../use-cases/run.js';
import type { DomainDeps } from './domain-deps.js';
import { getDomain, listDomains, registerDomain, removeDomain } from './domains.js';
import type { DnsAnswer, DnsRecords } from './ports.js';
import { verifyDomain } from './verify-domain.js';

export interface DomainOptions {
  /** The DNS lookups of domain verification; the host passes one on `node:dns` with `DNS_SERVERS`. */
  readonly dns?: DnsRecords;
  /** The host custom domains' MX records point to. Default `mx.<inbox domain>`. */
  readonly mxHost?: string;
}

const NO_DNS_ANSWER: DnsAnswer<never> = { kind: 'failed', reason: 'no DNS resolver is configured' };

/** Without a resolver every verification answers 503: nothing is verified by default. */
const NO_DNS: DnsRecords = { mx: async () => NO_DNS_ANSWER, txt: async () => NO_DNS_ANSWER };

export const domainDeps = (deps: CoreDeps, options: DomainOptions): DomainDeps => ({
  ...deps,
  domains: { dns: options.dns ?? NO_DNS, mxHost: (options.mxHost ?? `mx.${deps.config.inboxDomain}`).toLowerCase().replace(/\.$/, '') },
});

/** The `domains` section of the service. */
export const domainsFacade = (deps: DomainDeps) => ({
  register: run(registerDomain(deps)),
  list: run(listDomains(deps)),
  get: run(getDomain(deps)),
  verify: run(verifyDomain(deps)),
  remove: run(removeDomain(deps)),
  /** The host custom domains' MX records must point to. */
  mxHost: deps.domains.mxHost,
});
