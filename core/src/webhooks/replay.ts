import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DomainError } from '../domain/errors.js';
import { eventNotFound } from '../domain/errors.js';
import type { EventRecord } from '../domain/event.js';
import { C } from '../store/collections.js';
import { newDeliveryJob } from './delivery-job.js';
import { loadWebhook } from './webhook-access.js';
import type { WebhookDeps } from './webhook-deps.js';

export interface ReplayQueued {
  readonly event_id: string;
  readonly webhook_id: string;
  readonly status: 'queued';
  /** The new delivery, to follow in the delivery log. */
  readonly delivery_id: string;
}

/**
 * Queues the event for the endpoint again, as a new delivery with a full set of attempts. The
 * payload keeps the event's `id` (receivers deduplicate on it); each attempt is signed afresh
 * with its own `X-Timestamp`. An event of another tenant answers like an unknown one.
 */
export const replayWebhookEvent =
  (deps: WebhookDeps) =>
  (principal: Principal, webhookId: string, eventId: string): TE.TaskEither<DomainError, ReplayQueued> =>
    pipe(
      () => loadWebhook(deps, principal, webhookId),
      TE.flatMap((webhook) => async () => {
        const event = (await deps.store.get(C.events, eventId)) as EventRecord | undefined;
        if (event === undefined || event.org_id !== principal.orgId || event.project_id !== principal.projectId) {
          return E.left(eventNotFound(eventId));
        }
        const job = newDeliveryJob(deps.ids.next('dlv'), webhook, event, deps.clock.now(), true);
        await deps.store.insert(C.webhookDeliveries, job);
        return E.right({ event_id: event.id, webhook_id: webhook.id, status: 'queued' as const, delivery_id: job.id });
      }),
    );
