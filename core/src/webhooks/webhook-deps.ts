import type { CoreDeps } from '../deps.js';
import type { UrlGuard } from './ports.js';
import type { SecretCache } from './secret-cache.js';

/** What the webhook use cases need beyond the core's ports. */
export interface WebhookSettings {
  /** AES-256 key sealing signing secrets at rest (see secret-box.ts). */
  readonly secretsKey: Buffer;
  /** Opens sealed secrets under `secretsKey`, once per sealed form (a cache of pure answers). */
  readonly secrets: SecretCache;
  /** Uniform in [0, 1): the jitter of retries, injectable so schedules are testable. */
  readonly random: () => number;
  /** Static checks of destination URLs at creation and change. */
  readonly urlGuard: UrlGuard;
}

export interface WebhookDeps extends CoreDeps {
  readonly webhooks: WebhookSettings;
}
