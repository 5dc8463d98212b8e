import http from 'node:http';
import https from 'node:https';

/**
 * Keep-alive agents, one per (scheme, checked address, port, TLS name). Keying by the checked
 * address means a reused connection always goes to the very address this attempt checked:
 * when a name starts resolving elsewhere, its next attempt gets another agent and a new
 * connection to the newly checked address.
 */
export class AgentPool {
  private readonly agents = new Map<string, http.Agent>();

  constructor(
    private readonly options: { readonly maxAgents: number; readonly maxSocketsPerAgent: number; readonly idleMs: number },
  ) {}

  agentFor(protocol: 'https:' | 'http:', address: string, port: number, servername: string): http.Agent {
    const key = `${protocol}|${address}|${port}|${servername}`;
    const found = this.agents.get(key);
    if (found !== undefined) {
      // Map order is insertion order: re-inserting marks the agent as recently used.
      this.agents.delete(key);
      this.agents.set(key, found);
      return found;
    }
    // Every connection a burst opened stays open for the next burst (until `idleMs`): keeping
    // fewer idle than may be open closed and reopened most of them on every burst of deliveries.
    const max = this.options.maxSocketsPerAgent;
    const settings = { keepAlive: true, maxSockets: max, maxFreeSockets: max, timeout: this.options.idleMs };
    const agent = protocol === 'https:' ? new https.Agent(settings) : new http.Agent(settings);
    this.agents.set(key, agent);
    if (this.agents.size > this.options.maxAgents) this.evictOldest();
    return agent;
  }

  private evictOldest(): void {
    const [key, agent] = this.agents.entries().next().value as [string, http.Agent];
    this.agents.delete(key);
    agent.destroy();
  }

  /** Closes every pooled connection. */
  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
