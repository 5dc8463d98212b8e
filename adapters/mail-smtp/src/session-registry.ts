import { clientKeys, type ClientKeys } from './client-keys.js';

interface Admitted {
  readonly keys: ClientKeys;
  readonly deadline: NodeJS.Timeout;
}

/** Limits on concurrent sessions, and the total-lifetime timer of each admitted session. */
export interface SessionLimits {
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
  readonly maxConnectionsPerNetwork: number;
  readonly sessionTimeoutMs: number;
}

/** Whether a new session was admitted, or which limit it met (the client's own first). */
export type Admission = 'admitted' | 'address_full' | 'network_full' | 'server_full';

/** Sessions per key; a key with none is dropped, so the maps hold only clients with sessions. */
class Counts {
  private readonly counts = new Map<string, number>();

  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string, delta: 1 | -1): void {
    const next = this.of(key) + delta;
    if (next > 0) this.counts.set(key, next);
    else this.counts.delete(key);
  }

  clear(): void {
    this.counts.clear();
  }
}

/**
 * Counts the sessions of one server, in total, per client (an IPv4 address or an IPv6 /64) and
 * per network (an IPv4 /24 or an IPv6 /48; see {@link clientKeys}). Only admitted sessions
 * count, so a refused client does not hold a slot while its 421 is on the way out.
 */
export class SessionRegistry {
  private readonly admitted = new Map<string, Admitted>();
  private readonly perAddress = new Counts();
  private readonly perNetwork = new Counts();

  constructor(private readonly limits: SessionLimits) {}

  /**
   * Admits a session unless a limit is reached. `onDeadline` runs when the session outlives
   * `sessionTimeoutMs`; the timer does not keep the process alive.
   */
  admit(sessionId: string, ip: string, onDeadline: () => void): Admission {
    const keys = clientKeys(ip);
    if (this.perAddress.of(keys.address) >= this.limits.maxConnectionsPerIp) return 'address_full';
    if (this.perNetwork.of(keys.network) >= this.limits.maxConnectionsPerNetwork) return 'network_full';
    if (this.admitted.size >= this.limits.maxConnections) return 'server_full';
    const deadline = setTimeout(onDeadline, this.limits.sessionTimeoutMs);
    deadline.unref();
    this.admitted.set(sessionId, { keys, deadline });
    this.perAddress.add(keys.address, 1);
    this.perNetwork.add(keys.network, 1);
    return 'admitted';
  }

  /** Frees the slot of a session that closed; harmless for one never admitted. */
  release(sessionId: string): void {
    const session = this.admitted.get(sessionId);
    if (session === undefined) return;
    clearTimeout(session.deadline);
    this.admitted.delete(sessionId);
    this.perAddress.add(session.keys.address, -1);
    this.perNetwork.add(session.keys.network, -1);
  }

  /** Sessions currently admitted. */
  get size(): number {
    return this.admitted.size;
  }

  /** Stops every deadline timer (the server is closing). */
  clear(): void {
    for (const session of this.admitted.values()) clearTimeout(session.deadline);
    this.admitted.clear();
    this.perAddress.clear();
    this.perNetwork.clear();
  }
}
