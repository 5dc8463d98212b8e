import { run } from './use-cases/run.js';
import { exchangeToken } from './auth/access-tokens.js';
import { createApiKey, listApiKeys, revokeApiKey } from './auth/api-keys.js';
import { authenticate } from './auth/authenticate.js';
import { ensureOrganization, ensureProject } from './auth/tenancy.js';
import type { CoreConfig, CoreDeps } from './deps.js';
import { DEFAULT_PLANS } from './domain/plans.js';
import { cryptoIds, systemClock } from './memory/system.js';
import type { Clock } from './ports/clock.js';
import type { DocumentStore } from './ports/document-store.js';
import type { Ids } from './ports/ids.js';
import { COLLECTIONS } from './store/collections.js';
import { EventHub } from './store/event-hub.js';
import { relayTick, type RelayOptions } from './store/event-relay.js';
import { bulkCreateIdentities, bulkSquashIdentities } from './use-cases/bulk.js';
import { runMaintenanceTick } from './use-cases/expire-identities.js';
import { latestEvent, listEvents } from './use-cases/events.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from './use-cases/idempotency.js';
import {
  createIdentity,
  extendIdentity,
  getIdentity,
  listIdentities,
  squashIdentity,
} from './use-cases/identities.js';
import { createChild, getLineage, revokeChildren } from './use-cases/lineage.js';
import type { MessageParser } from './extraction/message-parser.js';
import { createMailboxCursorStore } from './mail/cursor-store.js';
import { createMailIngress } from './mail/ingress.js';
import type { MessageAuthenticator } from './mail/ports.js';
import type { Meter } from './metrics/meter.js';
import { noMeter } from './metrics/meter.js';
import { registerStoreGauges } from './metrics/store-gauges.js';
import { Waiters } from './mail/waiters.js';
import { getMessage, getRawMessage, latestEventWaiting, listMessages } from './use-cases/mail-reads.js';
import { latestExtraction } from './use-cases/latest-extraction.js';
import type { DomainOptions } from './domains/facade.js';
import { reliabilityFacade } from './reliability/facade.js';
import { exportsFacade } from './exports/facade.js';
import type { ExportOptions } from './exports/export-deps.js';
import { marketplaceFacade } from './marketplace/facade.js';
import { freeDeps, freeFacade } from './free/facade.js';
import { consumerFacade, type ConsumerOptions } from './consumer/facade.js';
import type { FreeSettings } from './free/free-identities.js';
import type { BillingOptions } from './billing/facade.js';
import { billingDeps, billingFacade } from './billing/facade.js';
import { createApiCallCounter } from './billing/api-calls.js';
import { migrateCopiedPlans } from './billing/migrate-copied-plans.js';
import { migrateEventMasks } from './use-cases/migrate-event-masks.js';
import { migrateLabelKeys } from './use-cases/migrate-label-keys.js';
import { domainDeps, domainsFacade } from './domains/facade.js';
import type { WebhookOptions } from './webhooks/facade.js';
import { webhookDeps, webhooksFacade } from './webhooks/facade.js';
import type { RetryPolicy } from './webhooks/retry-schedule.js';
import { assertRetryPolicy, DEFAULT_RETRY_POLICY } from './webhooks/retry-schedule.js';

export interface EphemailOptions extends WebhookOptions {
  /** Custom domains: the DNS lookups of verification and the MX host. */
  readonly domains?: DomainOptions;
  /** Billing and trials: the payment provider. */
  readonly billing?: BillingOptions;
  /** People's accounts: the mailer of magic links and where links point. */
  readonly consumer?: ConsumerOptions;
  /** The anonymous free tier: where its identities live, its grant secret, its rate. */
  readonly free?: Partial<FreeSettings>;
  /** Bulk exports: file storage, CSV encoder, download signing key and host, limits. */
  readonly exports?: ExportOptions;
  readonly store: DocumentStore;
  readonly inboxDomain: string;
  readonly clock?: Clock;
  readonly ids?: Ids;
  readonly config?: Partial<Omit<CoreConfig, 'inboxDomain' | 'webhookRetry'>> & { readonly webhookRetry?: Partial<RetryPolicy> };
  /** MIME parser for received mail (the host passes mail-parse's); without one, `mail.ingress` refuses every message as unparseable. */
  readonly parser?: MessageParser;
  /** SPF/DKIM/DMARC checks of received mail. */
  readonly authenticator?: MessageAuthenticator;
  /** Messages one identity may hold (SMTP 452 beyond). Default 1000. */
  readonly maxMessagesPerIdentity?: number;
  /** How long (ms) a recipient check's read of an identity answers the checks after it, unless this process hears of a change first. Default 20. */
  readonly precheckFreshMs?: number;
  /** How often a long-poll waiter checks the store for changes made by other processes. Default 20 ms. */
  readonly longPollIntervalMs?: number;
  /** Where the service counts what it does, and registers the gauges it reads (see metrics/catalogue.ts). Default: counts nothing. */
  readonly meter?: Meter;
}

const NO_PARSER: MessageParser = {
  parse: async () => ({ ok: false, error: { _tag: 'MalformedMessage', reason: 'no parser configured' } }),
};

/**
 * The embeddable service: every use case over the given store, clock and ids. Methods answer
 * `Promise<Either<DomainError, A>>`; a rejected promise means infrastructure failed.
 */
export const createEphemail = (options: EphemailOptions) => {
  const deps: CoreDeps = {
    store: options.store,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? cryptoIds,
    hub: new EventHub(),
    meter: options.meter ?? noMeter,
    config: {
      inboxDomain: options.inboxDomain,
      plans: options.config?.plans ?? DEFAULT_PLANS,
      idempotencyRetentionMs: options.config?.idempotencyRetentionMs ?? 24 * 3_600_000,
      idempotencyLeaseMs: options.config?.idempotencyLeaseMs ?? 60_000,
      allowHttpLoopback: options.config?.allowHttpLoopback ?? false,
      webhookRetry: { ...DEFAULT_RETRY_POLICY, ...options.config?.webhookRetry },
    },
  };
  assertRetryPolicy(deps.config.webhookRetry);
  const waiters = new Waiters(deps, options.longPollIntervalMs);
  const apiCalls = createApiCallCounter(deps);
  deps.meter.gauge('ephemail_longpoll_waiters', () => waiters.open);
  registerStoreGauges(deps, deps.meter);
  const ingress = createMailIngress(deps, {
    parser: options.parser ?? NO_PARSER,
    authenticator: options.authenticator,
    maxMessagesPerIdentity: options.maxMessagesPerIdentity,
    precheckFreshMs: options.precheckFreshMs,
  });
  return {
    deps,
    /** Prepares the store's collections and indexes, and cleans data of older versions; call once at start-up. */
    init: async () => {
      await deps.store.init(COLLECTIONS);
      await migrateCopiedPlans(deps);
      await migrateLabelKeys(deps);
      await migrateEventMasks(deps);
    },
    ready: () => deps.store.ping(),
    close: async () => {
      // Waits read their last answer before the store closes under them.
      waiters.end();
      await waiters.idle();
      await apiCalls.close().catch(() => undefined);
      await deps.store.close();
    },
    mail: {
      /** What mail transports (SMTP, IMAP) call: recipient checks and delivery. */
      ingress,
      /** Durable IMAP cursors. */
      cursors: createMailboxCursorStore(deps),
    },
    extractions: {
      /**
       * The latest extraction (of a `type`, if given), waiting up to `waitSeconds` for one (newer
       * than `after`): a `PublicExtraction` (redacted), or with `reveal: true` and a principal
       * holding `secrets:read` a `RevealedExtraction` (`Forbidden` without the scope).
       */
      latest: run(latestExtraction(deps, waiters)),
    },
    longPolls: {
      /** Long-polls waiting now. */
      open: () => waiters.open,
      /** Timers held by waiting long-polls: each ends with its wait (answered, timed out, abandoned by its caller, or ended). */
      sleeping: () => waiters.sleeping,
      /**
       * Ends every long-poll now, each answering what the store holds, and makes later ones answer
       * without waiting: a host calls it first when shutting down, so waits do not hold its HTTP
       * server open. `close()` does it too.
       */
      end: () => waiters.end(),
    },
    messages: {
      list: run(listMessages(deps)),
      get: run(getMessage(deps)),
      raw: run(getRawMessage(deps)),
    },
    auth: {
      authenticate: (input: Parameters<typeof authenticate>[1]) => authenticate(deps, input),
      exchangeToken: (...args: Parameters<typeof exchangeToken> extends [CoreDeps, ...infer R] ? R : never) =>
        exchangeToken(deps, ...args),
      createApiKey: (input: Parameters<typeof createApiKey>[1]) => createApiKey(deps, input),
      listApiKeys: (orgId?: string) => listApiKeys(deps, orgId),
      revokeApiKey: (keyId: string) => revokeApiKey(deps, keyId),
      ensureOrganization: (input: Parameters<typeof ensureOrganization>[1]) => ensureOrganization(deps, input),
      ensureProject: (input: Parameters<typeof ensureProject>[1]) => ensureProject(deps, input),
    },
    identities: {
      create: run(createIdentity(deps)),
      get: run(getIdentity(deps)),
      list: run(listIdentities(deps)),
      extend: run(extendIdentity(deps)),
      squash: run(squashIdentity(deps)),
      createChild: run(createChild(deps)),
      revokeChildren: run(revokeChildren(deps)),
      lineage: run(getLineage(deps)),
      bulkCreate: run(bulkCreateIdentities(deps)),
      bulkSquash: run(bulkSquashIdentities(deps)),
    },
    events: {
      list: run(listEvents(deps)),
      latest: run(latestEvent(deps)),
      /** The latest event, waiting up to `waitSeconds` for one (other than `after`). */
      latestWaiting: run(latestEventWaiting(deps, waiters)),
      /** In-process notification of newly logged events (a fast path, not the source of truth). */
      subscribe: (listener: Parameters<EventHub['subscribe']>[0]) => deps.hub.subscribe(listener),
      /**
       * Hands this instance's listeners (long-poll waiters, streams) an event that another
       * instance over the same store logged in this process, such as a delivery thread's: the
       * fast path only, since the event is in the log already and waiters would find it there.
       */
      publish: (event: Parameters<EventHub['publish']>[0]) => deps.hub.publish(event),
    },
    idempotency: {
      claim: (...args: Parameters<typeof claimIdempotencyKey> extends [CoreDeps, ...infer R] ? R : never) =>
        claimIdempotencyKey(deps, ...args),
      complete: (...args: Parameters<typeof completeIdempotencyKey> extends [CoreDeps, ...infer R] ? R : never) =>
        completeIdempotencyKey(deps, ...args),
      release: (...args: Parameters<typeof releaseIdempotencyKey> extends [CoreDeps, ...infer R] ? R : never) =>
        releaseIdempotencyKey(deps, ...args),
    },
    webhooks: webhooksFacade(webhookDeps(deps, options), options.dataKey !== undefined),
    domains: domainsFacade(domainDeps(deps, options.domains ?? {})),
    reliability: reliabilityFacade(deps, options.urlGuard),
    exports: exportsFacade(deps, options.exports ?? {}),
    marketplace: marketplaceFacade(deps),
    free: freeFacade(freeDeps(deps, options.free)),
    ...billingFacade(billingDeps(deps, options.billing ?? {}), apiCalls),
    consumer: consumerFacade(billingDeps(deps, options.billing ?? {}), options.consumer ?? {}, waiters),
    relays: {
      /**
       * One tick of a named relay over the event log (its own stored cursor, leased, at least
       * once): `handle` gets the next events in log order; the cursor moves only after it resolves.
       */
      tick: (name: string, owner: string, handle: Parameters<typeof relayTick>[3], options?: RelayOptions) =>
        relayTick(deps, name, owner, handle, options),
    },
    maintenance: {
      tick: (owner: string, options?: Parameters<typeof runMaintenanceTick>[2]) => runMaintenanceTick(deps, owner, options),
    },
  };
};

export type Ephemail = ReturnType<typeof createEphemail>;
