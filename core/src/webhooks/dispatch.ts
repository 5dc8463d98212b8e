import type { EventRecord } from '../domain/event.js';
import { C } from '../store/collections.js';
import type { RelayOptions, RelayReport } from '../store/event-relay.js';
import { relayTick } from '../store/event-relay.js';
import { deliveryJobId, newDeliveryJob } from './delivery-job.js';
import type { WebhookRecord } from './endpoint.js';
import { isWebhookEventType } from './event-types.js';
import type { WebhookDeps } from './webhook-deps.js';

/** The name of the webhook relay: its cursor and lease in the store. */
export const WEBHOOK_RELAY = 'webhooks';

export interface DispatchReport extends RelayReport {
  /** Delivery jobs created in this tick (a re-handed event creates none twice). */
  readonly enqueued: number;
}

/**
 * Whether the endpoint wants the event: subscribed to its type, and created no later than it
 * happened, so a relay catching up after downtime does not send a new endpoint old history.
 */
const wants = (endpoint: WebhookRecord, event: EventRecord): boolean =>
  endpoint.events.includes(event.type as WebhookRecord['events'][number]) && endpoint.created_at <= event.occurred_at;

/**
 * One job per (event, subscribed endpoint), inserted if absent under an id derived from both:
 * when the relay hands a batch again after a crash, nothing is enqueued twice.
 */
export const enqueueDeliveries = async (deps: WebhookDeps, events: readonly EventRecord[]): Promise<number> => {
  const endpointsOf = new Map<string, Promise<WebhookRecord[]>>();
  const now = deps.clock.now();
  let enqueued = 0;
  for (const event of events) {
    if (!isWebhookEventType(event.type)) continue;
    const tenant = `${event.org_id}\n${event.project_id}`;
    if (!endpointsOf.has(tenant)) {
      const where = { org_id: event.org_id, project_id: event.project_id };
      endpointsOf.set(tenant, deps.store.find(C.webhooks, { where }) as unknown as Promise<WebhookRecord[]>);
    }
    const targets = (await endpointsOf.get(tenant)!).filter((endpoint) => wants(endpoint, event));
    const outcomes = await Promise.all(
      targets.map((endpoint) => deps.store.insert(C.webhookDeliveries, newDeliveryJob(deliveryJobId(event.id, endpoint.id), endpoint, event, now, false))),
    );
    enqueued += outcomes.filter((outcome) => outcome === 'inserted').length;
  }
  return enqueued;
};

/**
 * One tick of the webhook relay: reads the event log after its own stored cursor (leased, so
 * one process at a time; at least once) and enqueues the deliveries. The host calls it on a timer.
 */
export const dispatchTick = async (deps: WebhookDeps, owner: string, options: RelayOptions = {}): Promise<DispatchReport> => {
  let enqueued = 0;
  const report = await relayTick(deps, WEBHOOK_RELAY, owner, async (events) => {
    enqueued += await enqueueDeliveries(deps, events);
  }, options);
  return { ...report, enqueued };
};
