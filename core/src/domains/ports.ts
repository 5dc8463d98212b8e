/**
 * What one DNS question came to. `absent`: the name or the record type does not exist
 * (NXDOMAIN, NODATA), a definite answer. `timeout` and `failed` (SERVFAIL, refused, no server
 * reachable) say nothing about the records: the question is worth asking again.
 */
export type DnsAnswer<T> =
  | { readonly kind: 'found'; readonly records: readonly T[] }
  | { readonly kind: 'absent' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'failed'; readonly reason: string };

export interface MxRecord {
  readonly exchange: string;
  readonly priority: number;
}

/**
 * The DNS lookups domain verification makes. Each method answers, never throws: trouble
 * reaching the name servers is a `timeout` or `failed` answer. Names are asked as given (ASCII,
 * no trailing dot); answers are as the servers gave them.
 */
export interface DnsRecords {
  /** The MX records of `name`. */
  mx(name: string): Promise<DnsAnswer<MxRecord>>;
  /** The TXT records of `name`, each joined from its character-strings. */
  txt(name: string): Promise<DnsAnswer<string>>;
}
