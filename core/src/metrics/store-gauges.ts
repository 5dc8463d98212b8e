import type { CoreDeps } from '../deps.js';
import { C } from '../store/collections.js';
import { EVENT_LOG_COUNTER } from '../store/log-position.js';
import { FAILED_DELIVERIES_COUNTER } from '../webhooks/attempt.js';
import type { Meter } from './meter.js';

const countOf = async (deps: CoreDeps, counter: string): Promise<number> => {
  const doc = await deps.store.get(C.counters, counter);
  return typeof doc?.count === 'number' ? doc.count : 0;
};

/** Each relay's distance behind the newest position taken in the event log. */
const relayLag = async (deps: CoreDeps): Promise<Record<string, number>> => {
  const [newest, cursors] = await Promise.all([countOf(deps, EVENT_LOG_COUNTER), deps.store.find(C.relayCursors, {})]);
  return Object.fromEntries(cursors.map((cursor) => [cursor.id, Math.max(0, newest - Number(cursor.position))]));
};

/**
 * The gauges read from the store at each scrape: store-wide, so every host over one store reports
 * the same values (aggregate them with `max`, not `sum`). Each is one indexed count or a read of a
 * few small documents: the open deliveries (index `open`), the identities with an outbox (index
 * `has_pending`), the failed deliveries' counter, the log's counter and the relays' cursors.
 */
export const registerStoreGauges = (deps: CoreDeps, meter: Meter): void => {
  meter.gauge('ephemail_webhook_deliveries_pending', () => deps.store.count(C.webhookDeliveries, { where: { open: true } }));
  meter.gauge('ephemail_webhook_deliveries_failed', () => countOf(deps, FAILED_DELIVERIES_COUNTER));
  meter.gauge('ephemail_event_outbox_identities', () => deps.store.count(C.identities, { where: { has_pending: true } }));
  meter.gauge('ephemail_event_relay_lag_events', () => relayLag(deps));
};
