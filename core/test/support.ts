import * as E from 'fp-ts/lib/Either.js';
import type { DocumentStore, Ids, PaymentProvider, PlanName, Principal, ProviderEvent } from '../src/index.js';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../src/index.js';

/** A payment provider whose callbacks are trusted when they carry `x-test: signed`. */
export const testProvider: PaymentProvider = {
  name: 'test',
  createCustomer: async ({ orgId }) => ({ customerReference: `cus_${orgId}` }),
  createCheckoutSession: async ({ plan, reference }) => ({ url: `https://pay.example/checkout/${plan}/${reference}` }),
  createPortalSession: async ({ subscriptionReference }) => ({ url: `https://pay.example/portal/${subscriptionReference}` }),
  verifyCallback: (raw, headers) => (headers['x-test'] === 'signed' ? { kind: 'event', event: JSON.parse(raw.toString()) as ProviderEvent } : { kind: 'invalid', reason: 'unsigned' }),
};

/**
 * The memory store without its optional `insertAll` and `transact`, as a store that cannot write
 * several documents atomically is: core then records events through the identity's outbox.
 */
export const outboxOnlyStore = (): DocumentStore => {
  const store = createMemoryDocumentStore();
  Object.defineProperty(store, 'insertAll', { value: undefined });
  Object.defineProperty(store, 'transact', { value: undefined });
  return store;
};

/** A fresh service on the memory store with a fake clock, and a principal of a new tenant. */
export const setup = async (options: { plan?: PlanName; scopes?: string[]; store?: DocumentStore; ids?: Ids } = {}) => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const app = createEphemail({ store: options.store ?? createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, ...(options.ids ? { ids: options.ids } : {}) });
  await app.init();
  const principal = await newPrincipal(app, options);
  return { app, clock, principal };
};

export const newPrincipal = async (
  app: ReturnType<typeof createEphemail>,
  options: { plan?: PlanName; scopes?: string[] } = {},
): Promise<Principal & { key: string }> => {
  const orgId = `org_${Math.random().toString(36).slice(2)}`;
  const projectId = `proj_${Math.random().toString(36).slice(2)}`;
  const created = await app.auth.createApiKey({
    orgId,
    projectIds: [projectId],
    scopes: options.scopes ?? ['identities:read', 'identities:write'],
    plan: options.plan ?? 'growth',
  });
  if (E.isLeft(created)) throw new Error(`could not create key: ${created.left._tag}`);
  const principal = await app.auth.authenticate({ authorization: `Bearer ${created.right.key}`, orgId, projectId });
  if (E.isLeft(principal)) throw new Error(`could not authenticate: ${principal.left._tag}`);
  return { ...principal.right, key: created.right.key };
};

/** The right side of an Either, or a thrown error naming the left tag (tests only). */
export const right = <A>(either: E.Either<{ _tag: string }, A>): A => {
  if (E.isLeft(either)) throw new Error(`expected Right, got ${either.left._tag}`);
  return either.right;
};

/** The tag of the left side, or `'Right'`. */
export const tagOf = (either: E.Either<{ _tag: string }, unknown>): string => (E.isLeft(either) ? either.left._tag : 'Right');
