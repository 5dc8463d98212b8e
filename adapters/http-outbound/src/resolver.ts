import dns from 'node:dns';

/** One address a name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has; rejects when it cannot. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (`getaddrinfo`, as every other client on the machine sees names). */
export const systemResolver: Resolver = async (hostname) => {
  // Looked up on the module at call time, so a test's tripwire around it stays in force.
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'EREFUSED', 'ESERVFAIL']);

/**
 * A resolver asking the given DNS servers (`host` or `host:port`) for A and AAAA records,
 * instead of the system's configuration. Rejects when neither family has an answer.
 */
export const createDnsResolver = (servers: readonly string[], timeoutMs = 5000): Resolver => {
  const resolver = new dns.promises.Resolver({ timeout: timeoutMs, tries: 2 });
  resolver.setServers([...servers]);
  const family = async (ask: Promise<string[]>, kind: 4 | 6): Promise<ResolvedAddress[]> => {
    try {
      return (await ask).map((address) => ({ address, family: kind }));
    } catch (error) {
      if (NO_ANSWER.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
  };
  return async (hostname) => {
    const [v4, v6] = await Promise.all([family(resolver.resolve4(hostname), 4), family(resolver.resolve6(hostname), 6)]);
    const all = [...v4, ...v6];
    if (all.length === 0) throw Object.assign(new Error(`${hostname} has no A or AAAA record`), { code: 'ENOTFOUND' });
    return all;
  };
};
