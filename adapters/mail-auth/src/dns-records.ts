import type { DnsAnswer, DnsRecords, MxRecord } from '@ephemail/core';
import type { DnsResolver } from './dns-resolver.js';

/** Node's codes for "this name or this record type does not exist": a definite answer. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'NODATA']);

const codeOf = (error: unknown): string => (typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : 'EUNKNOWN');

/** One question; node's errors become answers: absent, timeout, or failed with node's code. */
const ask = async <T>(question: () => Promise<unknown>, read: (raw: unknown) => T[]): Promise<DnsAnswer<T>> => {
  try {
    const records = read(await question());
    return records.length === 0 ? { kind: 'absent' } : { kind: 'found', records };
  } catch (error) {
    const code = codeOf(error);
    if (ABSENT.has(code)) return { kind: 'absent' };
    if (code === 'ETIMEOUT') return { kind: 'timeout' };
    return { kind: 'failed', reason: code };
  }
};

const asMx = (raw: unknown): MxRecord[] =>
  (Array.isArray(raw) ? raw : []).filter((r): r is MxRecord => typeof r?.exchange === 'string' && typeof r?.priority === 'number');

// A TXT record is a list of character-strings (each at most 255 bytes); its value is their join.
const asTxt = (raw: unknown): string[] =>
  (Array.isArray(raw) ? raw : []).map((chunks) => (Array.isArray(chunks) ? chunks.join('') : String(chunks)));

/**
 * The core's `DnsRecords` port (custom-domain verification) on a {@link DnsResolver}, so it asks
 * the same name servers (`DNS_SERVERS`) with the same timeouts as the mail checks.
 */
export const createDnsRecords = (resolve: DnsResolver): DnsRecords => ({
  mx: (name) => ask(() => resolve(name, 'MX'), asMx),
  txt: (name) => ask(() => resolve(name, 'TXT'), asTxt),
});
