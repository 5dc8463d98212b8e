import './tripwire.js';
import type { PlanName, TransportOutcome, WebhookTransport } from '../../src/index.js';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../../src/index.js';
import { newPrincipal } from '../support.js';

/** A seeded uniform generator (mulberry32), so jitter and chaos are reproducible from a seed. */
export const seeded = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export const DATA_KEY = Buffer.alloc(32, 7);
export const ALL_SCOPES = ['identities:read', 'identities:write', 'webhooks:read', 'webhooks:write'];

/** A service on the memory store with a fake clock and a fixed data key, and a tenant. */
export const setupWebhooks = async (options: { plan?: PlanName; random?: () => number; allowHttpLoopback?: boolean; dataKey?: Buffer } = {}) => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const store = createMemoryDocumentStore();
  const app = createEphemail({
    store,
    inboxDomain: 'inbox.test',
    clock,
    dataKey: options.dataKey ?? DATA_KEY,
    random: options.random ?? seeded(1),
    config: { allowHttpLoopback: options.allowHttpLoopback ?? false },
  });
  await app.init();
  const principal = await newPrincipal(app, { plan: options.plan ?? 'growth', scopes: ALL_SCOPES });
  return { app, clock, store, principal };
};

export interface Sent {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/** A transport that records every post and answers from `answer` (default 200). */
export const recordingTransport = (answer: (sent: Sent, index: number) => TransportOutcome | Promise<TransportOutcome> = () => ({ status: 200 })) => {
  const sent: Sent[] = [];
  const transport: WebhookTransport = {
    post: async (url, headers, body, { timeoutMs }) => {
      const entry = { url, headers, body, timeoutMs };
      sent.push(entry);
      return answer(entry, sent.length - 1);
    },
  };
  return { transport, sent };
};

export const HOOK_URL = 'https://hooks.example.com/ephemail';
