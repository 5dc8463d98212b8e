import type { Clock } from './ports/clock.js';
import type { DocumentStore } from './ports/document-store.js';
import type { Ids } from './ports/ids.js';
import type { Meter } from './metrics/meter.js';
import type { PlanTable } from './domain/plans.js';
import type { EventHub } from './store/event-hub.js';
import type { RetryPolicy } from './webhooks/retry-schedule.js';

/** Settings of the core; the host fills them from its validated configuration. */
export interface CoreConfig {
  /** The default mail domain of identities, e.g. `inbox.example.com`. */
  readonly inboxDomain: string;
  readonly plans: PlanTable;
  /** How long an idempotency key is remembered. Default 24 h. */
  readonly idempotencyRetentionMs: number;
  /** How long a claim stays in flight before another request may take it over. Default 60 s. */
  readonly idempotencyLeaseMs: number;
  /** Admits plain `http://` webhook URLs to loopback hosts (development mode). Default false. */
  readonly allowHttpLoopback: boolean;
  /** Retries of webhook deliveries. Default: 5 attempts, base 1 s, cap 30 min, full jitter. */
  readonly webhookRetry: RetryPolicy;
}

/** What every use case is given, by closure: ports and settings, never globals. */
export interface CoreDeps {
  readonly store: DocumentStore;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly hub: EventHub;
  /** Where use cases count what happened, for the host's `/metrics` (a no-op by default). */
  readonly meter: Meter;
  readonly config: CoreConfig;
}
