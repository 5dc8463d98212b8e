import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DomainError } from '../domain/errors.js';
import { C } from '../store/collections.js';
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
        const [docs, total] = await Promise.all([
          deps.store.find(C.webhookDeliveries, { where, sort: { field: 'created_at', direction: 'desc' }, limit: query.limit, offset: query.offset }),
          deps.store.count(C.webhookDeliveries, { where }),
        ]);
        const items = docs.map((doc) => toDelivery(doc as unknown as DeliveryJob));
        return E.right({ items, total, limit: query.limit, offset: query.offset });
      }),
    );
