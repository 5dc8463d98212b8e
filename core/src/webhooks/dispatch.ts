import type { EventRecord } from '../domain/event.js';
import { C } from '../store/collections.js';
import type { RelayOptions, RelayReport } from '../store/event-relay.js';
import { relayTick } from '../store/event-relay.js';
import type { DeliveryJob } from './delivery-job.js';
import { claimJob, deliveryJobId, newDeliveryJob } from './delivery-job.js';
import type { DeliveryHandoff } from './delivery-pool.js';
import type { WebhookRecord } from './endpoint.js';
import { isWebhookEventType } from './event-types.js';
import type { WebhookDeps } from './webhook-deps.js';

/** The name of the webhook relay: its cursor and lease in the store. */
export const WEBHOOK_RELAY = 'webhooks';

export interface DispatchReport extends RelayReport {
  /** Delivery jobs created in this tick (a re-handed event creates none twice). */
  readonly enqueued: number;
  /** Of those, the jobs handed straight to `handoff`; the others wait in the store for a worker. */
  readonly handedOff: number;
}

/**
 * Whether the endpoint wants the event: subscribed to its type, and created no later than it
 * happened, so a relay catching up after downtime does not send a new endpoint old history.
 */
const wants = (endpoint: WebhookRecord, event: EventRecord): boolean =>
  endpoint.events.includes(event.type as WebhookRecord['events'][number]) && endpoint.created_at <= event.occurred_at;

export interface DispatchOptions extends RelayOptions {
  /**
   * A delivery pool of this process: jobs it has room for are inserted already claimed by it and
   * attempted at once (one write less per job, no wait for a worker to find them).
   */
  readonly handoff?: DeliveryHandoff;
}

/** Inserts one job; when the hand-off has a slot for its endpoint, inserted claimed and started. */
const enqueueOne = async (deps: WebhookDeps, job: DeliveryJob, endpoint: WebhookRecord, now: Date, handoff?: DeliveryHandoff) => {
  if (handoff === undefined || !handoff.reserve(endpoint.id)) return deps.store.insert(C.webhookDeliveries, job);
  const claimed = claimJob(job, handoff.owner, now, handoff.leaseMs);
  let outcome: 'inserted' | 'exists';
  try {
    outcome = await deps.store.insert(C.webhookDeliveries, claimed);
  } catch (error) {
    handoff.release(endpoint.id);
    throw error;
  }
  if (outcome === 'inserted') handoff.start(claimed, endpoint);
  else handoff.release(endpoint.id);
  return outcome === 'inserted' ? 'handed' : outcome;
};

/**
 * One job per (event, subscribed endpoint), inserted if absent under an id derived from both:
 * when the relay hands a batch again after a crash, nothing is enqueued twice.
 */
export const enqueueDeliveries = async (
  deps: WebhookDeps,
  events: readonly EventRecord[],
  handoff?: DeliveryHandoff,
): Promise<{ enqueued: number; handedOff: number }> => {
  const endpointsOf = new Map<string, Promise<WebhookRecord[]>>();
  const now = deps.clock.now();
  let enqueued = 0;
  let handedOff = 0;
  for (const event of events) {
    if (!isWebhookEventType(event.type)) continue;
    const tenant = `${event.org_id}\n${event.project_id}`;
    if (!endpointsOf.has(tenant)) {
      const where = { org_id: event.org_id, project_id: event.project_id };
      endpointsOf.set(tenant, deps.store.find(C.webhooks, { where }) as unknown as Promise<WebhookRecord[]>);
    }
    const targets = (await endpointsOf.get(tenant)!).filter((endpoint) => wants(endpoint, event));
    const outcomes = await Promise.all(
      targets.map((endpoint) => enqueueOne(deps, newDeliveryJob(deliveryJobId(event.id, endpoint.id), endpoint, event, now, false), endpoint, now, handoff)),
    );
    enqueued += outcomes.filter((outcome) => outcome !== 'exists').length;
    handedOff += outcomes.filter((outcome) => outcome === 'handed').length;
  }
  return { enqueued, handedOff };
};

/**
 * One tick of the webhook relay: reads the event log after its own stored cursor (leased, so
 * one process at a time; at least once) and enqueues the deliveries. The host calls it on a timer.
 */
export const dispatchTick = async (deps: WebhookDeps, owner: string, options: DispatchOptions = {}): Promise<DispatchReport> => {
  let enqueued = 0;
  let handedOff = 0;
  const report = await relayTick(deps, WEBHOOK_RELAY, owner, async (events) => {
    const counts = await enqueueDeliveries(deps, events, options.handoff);
    enqueued += counts.enqueued;
    handedOff += counts.handedOff;
  }, options);
  return { ...report, enqueued, handedOff };
};
