import type { ParsedMessage, PlanName } from '../../src/index.js';
import { createEphemail, createMemoryDocumentStore, FakeClock, loadCatalogue } from '../../src/index.js';
import { newPrincipal } from '../support.js';

/**
 * A service with the shipped catalogue synced and a parser that answers the ParsedMessage a test
 * registered for the raw bytes it delivers: the mail pipeline runs for real from there on.
 */
export const marketplaceSetup = async (options: { plan?: PlanName } = {}) => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const parsed = new Map<string, ParsedMessage>();
  const app = createEphemail({
    store: createMemoryDocumentStore(),
    inboxDomain: 'inbox.test',
    clock,
    parser: { parse: async (raw) => ({ ok: true, message: parsed.get(Buffer.from(raw).toString())! }) },
  });
  await app.init();
  await app.marketplace.sync(loadCatalogue());
  const principal = await newPrincipal(app, { scopes: ['identities:read', 'identities:write', 'marketplace:read', 'marketplace:deploy'], ...(options.plan ? { plan: options.plan } : {}) });
  /** Delivers `message` to `to` through the ingress, as a transport would. */
  const deliver = async (to: string, message: ParsedMessage) => {
    const key = `raw-${parsed.size}-${Math.random()}`;
    parsed.set(key, message);
    return app.mail.ingress.deliver(Buffer.from(key), { mailFrom: message.envelopeFrom, rcptTo: [to], transport: 'smtp' });
  };
  return { app, clock, principal, deliver };
};
