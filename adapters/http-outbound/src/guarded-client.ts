import type { TransportOutcome, UrlGuard, WebhookTransport } from '@ephemail/core';
import { AgentPool } from './agent-pool.js';
import type { GuardedRequest, GuardedResponse, GuardOptions } from './guarded-request.js';
import { guardedRequest, guardedRequestWith } from './guarded-request.js';
import type { UrlCheck } from './url-check.js';
import { checkUrl } from './url-check.js';

export interface GuardedClientOptions extends GuardOptions {
  /** Reuse connections (one keep-alive pool per checked address). Default true. */
  readonly keepAlive?: boolean;
  /** Pools kept at most; the least recently used is closed beyond. Default 256. */
  readonly maxPools?: number;
  /** Connections per pool at most. Default 16. */
  readonly maxSocketsPerPool?: number;
  /** An idle pooled connection is closed after this. Default 15,000 ms. */
  readonly idleMs?: number;
}

/** The guarded client: general requests, and the core's `WebhookTransport`. */
export interface GuardedClient extends WebhookTransport {
  /** Any guarded request (later features: reliability runs, callbacks). Never rejects. */
  request(url: string, request?: GuardedRequest): Promise<GuardedResponse>;
  /** Closes pooled connections. */
  close(): void;
}

/**
 * The static checks of a URL depend on nothing but its text and `allowHttpLoopback`, so a client
 * makes them once per URL (a webhook endpoint's URL is posted to again and again). Only they are
 * remembered: the name is still resolved, and every address checked, at every attempt.
 */
const memoizedCheck = (allowHttpLoopback: boolean, capacity = 1024) => {
  const checks = new Map<string, UrlCheck>();
  return (url: string): UrlCheck => {
    const found = checks.get(url);
    if (found !== undefined) return found;
    const checked = checkUrl(url, { allowHttpLoopback });
    if (checks.size >= capacity) checks.clear();
    checks.set(url, checked);
    return checked;
  };
};

/**
 * The one client for user-supplied URLs. `post` answers `{ status }` or `{ error }` as the
 * core's delivery worker expects; every attempt resolves the name and checks every address.
 */
export const createGuardedClient = (options: GuardedClientOptions = {}): GuardedClient => {
  const agents = options.keepAlive === false
    ? undefined
    : new AgentPool({ maxAgents: options.maxPools ?? 256, maxSocketsPerAgent: options.maxSocketsPerPool ?? 16, idleMs: options.idleMs ?? 15_000 });
  const check = memoizedCheck(options.allowHttpLoopback ?? false);
  const request = (url: string, init: GuardedRequest = {}) => guardedRequestWith(url, init, { options, agents, check });
  return {
    request,
    post: async (url, headers, body, { timeoutMs }): Promise<TransportOutcome> => {
      const response = await request(url, { method: 'POST', headers, body, timeoutMs });
      return 'error' in response ? { error: response.error } : { status: response.status };
    },
    close: () => agents?.destroy(),
  };
};

/** One guarded POST without a pool (a one-off call). */
export const guardedPost = (url: string, headers: Readonly<Record<string, string>>, body: string | Buffer, options: GuardOptions = {}): Promise<GuardedResponse> =>
  guardedRequest(url, { method: 'POST', headers, body }, options);

/** The static URL checks as the core's `UrlGuard` port (endpoint creation and change). */
export const createUrlGuard = (): UrlGuard => ({
  check: async (url, { allowHttpLoopback }) => {
    const checked = checkUrl(url, { allowHttpLoopback });
    return checked.ok ? { ok: true } : { ok: false, reason: checked.reason };
  },
});
