import type { CollectionSpec } from '../ports/document-store.js';

/** Collection names, in one place so no repository misspells one. */
export const C = {
  identities: 'identities',
  addresses: 'identity_addresses',
  events: 'events',
  organizations: 'organizations',
  projects: 'projects',
  apiKeys: 'api_keys',
  accessTokens: 'access_tokens',
  idempotency: 'idempotency',
  counters: 'counters',
  leases: 'leases',
  messages: 'messages',
  messageChunks: 'message_chunks',
  extractions: 'extractions',
  mailboxCursors: 'mailbox_cursors',
  relayCursors: 'relay_cursors',
  webhooks: 'webhooks',
  webhookDeliveries: 'webhook_deliveries',
  /** One document per attempt of a delivery: the delivery log. */
  webhookAttempts: 'webhook_attempts',
  domains: 'domains',
  /** One document per registered hostname (id = the name): what makes a name registered once. */
  domainNames: 'domain_names',
  runs: 'reliability_runs',
  /** The marketplace catalogue, one document per template version (id = the template id). */
  templates: 'templates',
  deployments: 'deployments',
  billingAccounts: 'billing_accounts',
  redirectTokens: 'redirect_tokens',
  invoices: 'invoices',
  providerEvents: 'provider_events',
  trials: 'trials',
  freeIdentities: 'free_identities',
  consumers: 'consumers',
  /** One document per consumer address (id = the address): what makes an address one account. */
  consumerEmails: 'consumer_emails',
  magicLinks: 'magic_links',
  consumerSessions: 'consumer_sessions',
  notifications: 'notifications',
  exports: 'exports',
  /**
   * Short-lived records that only matter until their `expires_at` (rate-limit counters, used
   * grants, the free tier's per-address places); the maintenance job deletes them after it.
   */
  expiring: 'expiring_records',
} as const;

/**
 * Every collection core uses, with the field combinations its queries filter and sort on. Each
 * index serves a query core makes: every index is upkeep on every write of its collection (an
 * event's insert kept four indexes when two served a query), so one is added with its query.
 */
export const COLLECTIONS: readonly CollectionSpec[] = [
  {
    name: C.identities,
    indexes: [
      ['org_id', 'project_id', 'created_at'],
      ['org_id', 'project_id', 'status', 'created_at'],
      ['status', 'expires_at'],
      ['root_id', 'depth'],
      ['has_pending'],
      // Label search: a prefix of the normalised label, a range on this index (label-key.ts).
      ['org_id', 'project_id', 'label_key'],
    ],
  },
  { name: C.addresses, indexes: [] },
  // An identity's events newest first; the relays' walk of the log by position; a project's
  // events by time, for an events export's pages (exports/read-pages.ts).
  { name: C.events, indexes: [['identity_id', 'seq'], ['position'], ['org_id', 'project_id', 'occurred_at']] },
  { name: C.organizations, indexes: [] },
  { name: C.projects, indexes: [['org_id']] },
  { name: C.apiKeys, indexes: [['org_id', 'created_at']] },
  { name: C.accessTokens, indexes: [['expires_at']] },
  { name: C.idempotency, indexes: [['expires_at']] },
  { name: C.counters, indexes: [] },
  { name: C.leases, indexes: [] },
  { name: C.messages, indexes: [['identity_id', 'received_at']] },
  { name: C.messageChunks, indexes: [] },
  // Read by id (an identity names its latest extraction; a message names its own), and a
  // project's extractions by time for an extractions export's pages (exports/read-pages.ts).
  { name: C.extractions, indexes: [['org_id', 'project_id', 'extracted_at']] },
  { name: C.mailboxCursors, indexes: [] },
  { name: C.relayCursors, indexes: [] },
  { name: C.webhooks, indexes: [['org_id', 'project_id', 'created_at']] },
  // A project's domains, newest first.
  { name: C.domains, indexes: [['org_id', 'project_id', 'created_at']] },
  { name: C.domainNames, indexes: [] },
  // The catalogue listed by name (filters on category and use case read the few listed ones).
  { name: C.templates, indexes: [['listed', 'name']] },
  // An identity's deployment, when its extraction or its end comes through the log.
  { name: C.deployments, indexes: [['identity_id']] },
  // Runs due for their trigger or timeout; an identity's open runs, when its mail arrives.
  { name: C.runs, indexes: [['open', 'due_at'], ['identity_id', 'open']] },
  // An account found by the provider's subscription, when a renewal or cancellation comes in.
  { name: C.billingAccounts, indexes: [['subscription_reference']] },
  { name: C.redirectTokens, indexes: [['expires_at']] },
  { name: C.invoices, indexes: [['org_id', 'created_at']] },
  { name: C.providerEvents, indexes: [] },
  // Free identities and short-lived records past their time, for the maintenance purge.
  { name: C.freeIdentities, indexes: [['expires_at']] },
  { name: C.expiring, indexes: [['expires_at']] },
  { name: C.consumers, indexes: [] },
  { name: C.consumerEmails, indexes: [] },
  { name: C.magicLinks, indexes: [['expires_at']] },
  { name: C.consumerSessions, indexes: [['expires_at']] },
  { name: C.notifications, indexes: [['org_id', 'created_at']] },
  // Exports due to run (pending, or processing under a lease that ran out) or to have their
  // files purged (exports/export-jobs.ts, exports/purge-exports.ts).
  { name: C.exports, indexes: [['stage', 'due_at']] },
  // Trials due to expire or to be deleted after their grace.
  { name: C.trials, indexes: [['org_id'], ['open', 'due_at']] },
  {
    name: C.webhookDeliveries,
    indexes: [
      ['webhook_id', 'created_at'],
      ['webhook_id', 'status', 'created_at'],
      ['open', 'next_attempt_at'],
    ],
  },
  // An endpoint's delivery log, newest first, of all attempts or of those that left the delivery in one state.
  { name: C.webhookAttempts, indexes: [['webhook_id', 'attempted_at'], ['webhook_id', 'state', 'attempted_at']] },
];
