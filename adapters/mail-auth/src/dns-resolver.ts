import { Resolver } from 'node:dns/promises';

/**
 * One DNS lookup, in the shape mailauth's `resolver` option calls: `name` and a record type
 * (`'TXT'`, `'A'`, `'AAAA'`, `'MX'`, `'PTR'`...). It resolves with the answers as
 * `dns.promises.Resolver#resolve` gives them (TXT as arrays of character-string chunks, MX as
 * `{ exchange, priority }`, addresses as strings) and rejects with an error whose `code` is one of
 * node's DNS codes (`ENOTFOUND`, `ENODATA`, `ETIMEOUT`, `ECONNREFUSED`...), which mailauth reads
 * to tell "no such record" from "try again later".
 */
export type DnsResolver = (name: string, rrtype: string) => Promise<unknown>;

/** Options of {@link createDnsResolver}. */
export interface DnsResolverOptions {
  /** How long one query waits for an answer before it is retried, in milliseconds. Default 2000. */
  readonly queryTimeoutMs?: number;
  /** How many times a query is sent before it fails with `ETIMEOUT`. Default 2. */
  readonly tries?: number;
}

/** Defaults of {@link createDnsResolver}. */
export const DNS_RESOLVER_DEFAULTS = { queryTimeoutMs: 2000, tries: 2 } as const;

/**
 * Creates a {@link DnsResolver} on its own `dns.promises.Resolver`, so the host chooses the name
 * servers of mail checks without touching the process-wide DNS settings. Without `servers` it
 * uses the system's name servers; with them (for example `['127.0.0.1:5353']`) it asks only
 * those. Throws only when a server address is malformed, at creation time.
 */
export const createDnsResolver = (servers?: readonly string[], options: DnsResolverOptions = {}): DnsResolver => {
  const resolver = new Resolver({
    timeout: options.queryTimeoutMs ?? DNS_RESOLVER_DEFAULTS.queryTimeoutMs,
    tries: options.tries ?? DNS_RESOLVER_DEFAULTS.tries,
  });
  if (servers !== undefined && servers.length > 0) resolver.setServers([...servers]);
  // `async` turns node's synchronous argument errors (an unknown record type, a non-string
  // name from a hostile header) into rejections, which mailauth expects from every lookup.
  return async (name, rrtype) => resolver.resolve(name, rrtype);
};
