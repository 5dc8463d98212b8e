interface Admitted {
  readonly ip: string;
  readonly deadline: NodeJS.Timeout;
}

/** Limits on concurrent sessions, and the total-lifetime timer of each admitted session. */
export interface SessionLimits {
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
  readonly sessionTimeoutMs: number;
}

/**
 * Counts the sessions of one server, in total and per client address. Only admitted sessions
 * count, so a refused client does not hold a slot while its 421 is on the way out.
 */
export class SessionRegistry {
  private readonly admitted = new Map<string, Admitted>();
  private readonly perIp = new Map<string, number>();

  constructor(private readonly limits: SessionLimits) {}

  /**
   * Admits a session unless a limit is reached. `onDeadline` runs when the session outlives
   * `sessionTimeoutMs`; the timer does not keep the process alive.
   */
  admit(sessionId: string, ip: string, onDeadline: () => void): boolean {
    const fromIp = this.perIp.get(ip) ?? 0;
    if (this.admitted.size >= this.limits.maxConnections || fromIp >= this.limits.maxConnectionsPerIp) return false;
    const deadline = setTimeout(onDeadline, this.limits.sessionTimeoutMs);
    deadline.unref();
    this.admitted.set(sessionId, { ip, deadline });
    this.perIp.set(ip, fromIp + 1);
    return true;
  }

  /** Frees the slot of a session that closed; harmless for one never admitted. */
  release(sessionId: string): void {
    const session = this.admitted.get(sessionId);
    if (session === undefined) return;
    clearTimeout(session.deadline);
    this.admitted.delete(sessionId);
    const left = (this.perIp.get(session.ip) ?? 1) - 1;
    if (left > 0) this.perIp.set(session.ip, left);
    else this.perIp.delete(session.ip);
  }

  /** Sessions currently admitted. */
  get size(): number {
    return this.admitted.size;
  }

  /** Stops every deadline timer (the server is closing). */
  clear(): void {
    for (const session of this.admitted.values()) clearTimeout(session.deadline);
    this.admitted.clear();
    this.perIp.clear();
  }
}
