import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DomainError } from '../domain/errors.js';
import { C } from '../store/collections.js';
import { findPage } from '../store/page.js';
import type { Page } from '../use-cases/identities.js';
import type { Delivery, DeliveryJob } from './delivery-job.js';
import { toDelivery } from './delivery-job.js';
import type { DeliveryState } from './delivery-state.js';
import { loadWebhook } from './webhook-access.js';
import type { WebhookDeps } from './webhook-deps.js';

/** The delivery log of an endpoint, newest first, optionally of one state. */
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
