import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DomainError } from '../domain/errors.js';
import { C } from '../store/collections.js';
import { findPage } from '../store/page.js';
import { withoutVersion } from '../store/compare-and-set.js';
import type { Page } from '../use-cases/identities.js';
import type { Delivery, DeliveryJob } from './delivery-job.js';
import { toDelivery } from './delivery-job.js';
import type { DeliveryState } from './delivery-state.js';
import type { AttemptRecord, DeliveryAttempt } from './attempt-record.js';
import { toDeliveryAttempt } from './attempt-record.js';
import { loadWebhook } from './webhook-access.js';
import type { WebhookDeps } from './webhook-deps.js';

/** The deliveries (jobs) of an endpoint, newest first, optionally of one state: one row each, with its latest attempt. */
export const listDeliveries =
  (deps: WebhookDeps) =>
  (
    principal: Principal,
    webhookId: string,
    query: { readonly limit: number; readonly offset: number; readonly state?: DeliveryState },
  ): TE.TaskEither<DomainError, Page<Delivery>> =>
    pipe(
      () => loadWebhook(deps, principal, webhookId),
      TE.flatMap((webhook) => async () => {
        const where = { webhook_id: webhook.id, ...(query.state === undefined ? {} : { status: query.state }) };
        return E.right(await findPage(deps.store, C.webhookDeliveries, { where, newestBy: 'created_at' }, query, (doc) => toDelivery(doc as unknown as DeliveryJob)));
      }),
    );

/**
 * The delivery log of an endpoint: every attempt, newest first, optionally only those after
 * which the delivery was in `state`. Each row is joined with its delivery as it stands now, to
 * show the next retry on the last attempt of an unfinished delivery only.
 */
export const listDeliveryAttempts =
  (deps: WebhookDeps) =>
  (
    principal: Principal,
    webhookId: string,
    query: { readonly limit: number; readonly offset: number; readonly state?: DeliveryState },
  ): TE.TaskEither<DomainError, Page<DeliveryAttempt>> =>
    pipe(
      () => loadWebhook(deps, principal, webhookId),
      TE.flatMap((webhook) => async () => {
        const where = { webhook_id: webhook.id, ...(query.state === undefined ? {} : { state: query.state }) };
        const page = await findPage(deps.store, C.webhookAttempts, { where, newestBy: 'attempted_at' }, query, (doc) => withoutVersion<AttemptRecord>(doc));
        const ids = [...new Set(page.items.map((record) => record.delivery_id))];
        const jobs = new Map(await Promise.all(ids.map(async (id) => [id, (await deps.store.get(C.webhookDeliveries, id)) as DeliveryJob | undefined] as const)));
        return E.right({ ...page, items: page.items.map((record) => toDeliveryAttempt(record, jobs.get(record.delivery_id))) });
      }),
    );
