import type { DeliverReport, DeliveryPoolOptions } from './delivery-pool.js';
import { createDeliveryPool } from './delivery-pool.js';
import type { WebhookTransport } from './ports.js';
import type { WebhookDeps } from './webhook-deps.js';

export type { DeliverReport } from './delivery-pool.js';

export interface DeliverOptions extends Omit<DeliveryPoolOptions, 'onError' | 'maxJobs'> {
  /** Jobs this tick takes on at most, so a backlog cannot hold one tick forever. Default 1000. */
  readonly maxJobs?: number;
}

/**
 * One tick of a delivery worker: a pool of its own (see delivery-pool.ts) delivers due jobs,
 * `concurrency` in flight, until none is due or `maxJobs` were taken on; answers when the last
 * attempt was recorded. Any number of workers in any number of processes may tick at once,
 * overlapping ticks of one process included: each job is claimed by exactly one. A long-lived
 * worker keeps one pool instead (`webhooks.deliveryPool`), so it never waits for a whole batch.
 */
export const deliverTick = async (
  deps: WebhookDeps,
  owner: string,
  transport: WebhookTransport,
  options: DeliverOptions = {},
): Promise<DeliverReport> => {
  const pool = createDeliveryPool(deps, owner, transport, { ...options, maxJobs: options.maxJobs ?? 1000 });
  await pool.fill();
  await pool.settled();
  return pool.report();
};
