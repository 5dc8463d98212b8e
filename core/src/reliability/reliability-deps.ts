import type { CoreDeps } from '../deps.js';
import type { UrlGuard, WebhookTransport } from '../webhooks/ports.js';

/** What the reliability use cases need beyond the core's deps. */
export interface ReliabilityDeps extends CoreDeps {
  readonly reliability: {
    /** The static checks of a target URL (the webhook URL guard). */
    readonly urlGuard: UrlGuard;
    /** Tells this process's run worker that a run is waiting to be triggered. */
    readonly notify: () => void;
  };
}

/** How the trigger is sent: the SSRF-guarded outbound client, as for webhooks. */
export type TriggerTransport = WebhookTransport;
