import { run } from '../use-cases/run.js';
import { randomBytes } from 'node:crypto';
import type { CoreDeps } from '../deps.js';
import { basicUrlGuard } from './basic-url-guard.js';
import type { DeliverOptions } from './deliver.js';
import { deliverTick } from './deliver.js';
import { listDeliveries, listDeliveryAttempts } from './deliveries.js';
import type { DeliveryPoolOptions } from './delivery-pool.js';
import { createDeliveryPool } from './delivery-pool.js';
import type { DispatchOptions } from './dispatch.js';
import { dispatchTick } from './dispatch.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from './endpoints.js';
import type { UrlGuard, WebhookTransport } from './ports.js';
import { replayWebhookEvent } from './replay.js';
import { rotateWebhookSecret } from './rotate-secret.js';
import { assertDataKey, DATA_KEY_BYTES } from './secret-box.js';
import { createSecretCache } from './secret-cache.js';
import type { WebhookDeps } from './webhook-deps.js';

export interface WebhookOptions {
  /**
   * 32-byte key sealing webhook signing secrets at rest (AES-256-GCM). Without one, a random key
   * is made for this process: secrets then do not survive a restart (deliveries of endpoints
   * created before fail with "cannot sign" until their secret is rotated). Hosts pass a
   * configured key.
   */
  readonly dataKey?: Buffer;
  /** Uniform in [0, 1), for retry jitter. Default `Math.random`. */
  readonly random?: () => number;
  /** Static URL checks at creation and change; the host passes http-outbound's. */
  readonly urlGuard?: UrlGuard;
}

let processKey: Buffer | undefined;

/** One random key per process, shared by every service instance in it. */
const processDataKey = (): Buffer => (processKey ??= randomBytes(DATA_KEY_BYTES));

export const webhookDeps = (deps: CoreDeps, options: WebhookOptions): WebhookDeps => {
  if (options.dataKey !== undefined) assertDataKey(options.dataKey);
  const secretsKey = options.dataKey ?? processDataKey();
  return {
    ...deps,
    webhooks: {
      secretsKey,
      secrets: createSecretCache(secretsKey),
      random: options.random ?? Math.random,
      urlGuard: options.urlGuard ?? basicUrlGuard,
    },
  };
};

/** The `webhooks` section of the service: endpoint management, and the ticks a host runs on timers. */
export const webhooksFacade = (deps: WebhookDeps, durableSecrets: boolean) => ({
  create: run(createWebhook(deps)),
  list: run(listWebhooks(deps)),
  get: run(getWebhook(deps)),
  update: run(updateWebhook(deps)),
  remove: run(deleteWebhook(deps)),
  rotateSecret: run(rotateWebhookSecret(deps)),
  replay: run(replayWebhookEvent(deps)),
  deliveries: run(listDeliveries(deps)),
  /** The delivery log: every attempt, newest first (`GET /v1/webhooks/{id}/deliveries`). */
  attempts: run(listDeliveryAttempts(deps)),
  /**
   * Reads new events (relay `webhooks`, its own cursor) and enqueues their deliveries; with
   * `handoff` (a delivery pool of this process), the jobs it has room for start at once.
   */
  dispatchTick: (owner: string, options?: DispatchOptions) => dispatchTick(deps, owner, options),
  /** Delivers due jobs through `transport` and answers when done; safe from any number of workers and processes. */
  deliverTick: (owner: string, transport: WebhookTransport, options?: DeliverOptions) => deliverTick(deps, owner, transport, options),
  /**
   * A long-lived delivery worker: keeps up to `concurrency` attempts in flight, refilling each
   * freed slot from the due jobs; `fill()` on a timer and on news, `close()` at shutdown.
   */
  deliveryPool: (owner: string, transport: WebhookTransport, options?: DeliveryPoolOptions) => createDeliveryPool(deps, owner, transport, options),
  /** Whether signing secrets survive a restart (a data key was configured). */
  durableSecrets,
});
