import type { DnsResolver } from './dns-resolver.js';

/** The error a lookup fails with once the message's time is up: node's own timeout code. */
const timedOut = (name: string, rrtype: string): Error =>
  Object.assign(new Error(`DNS lookup of ${rrtype} ${name} ran past the message deadline`), { code: 'ETIMEOUT' });

/**
 * Wraps a resolver so that every lookup of one message shares a single deadline. A lookup that
 * would end after it fails with `ETIMEOUT`, which mailauth reports as `temperror` for the check
 * that asked; later lookups fail at once, so a dead name server costs one deadline per message,
 * not one per query. Checks that need no more DNS still finish with their real result.
 */
export const withDeadline = (resolver: DnsResolver, deadline: number, now: () => number = Date.now): DnsResolver =>
  (name, rrtype) => {
    const left = deadline - now();
    if (left <= 0) return Promise.reject(timedOut(name, rrtype));
    const lookup = Promise.resolve().then(() => resolver(name, rrtype));
    // The lookup may settle after the race is lost; its answer or error is then nobody's.
    lookup.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const expiry = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timedOut(name, rrtype)), left);
    });
    return Promise.race([lookup, expiry]).finally(() => clearTimeout(timer));
  };
