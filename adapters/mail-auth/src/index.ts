export {
  createMailauthAuthenticator,
  MAILAUTH_AUTHENTICATOR_DEFAULTS,
  type MailauthAuthenticatorOptions,
} from './mailauth-authenticator.js';
export { createDnsResolver, DNS_RESOLVER_DEFAULTS, type DnsResolver, type DnsResolverOptions } from './dns-resolver.js';
export { createDnsRecords } from './dns-records.js';
