import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import { planLimitsOf } from '../billing/plan-in-force.js';
import type { DomainError } from '../domain/errors.js';
import { quotaExceeded, webhookNotFound } from '../domain/errors.js';
import { iso } from '../domain/time.js';
import type { CreateWebhookBody, UpdateWebhookBody } from '../schemas.js';
import { C } from '../store/collections.js';
import { findPage } from '../store/page.js';
import { updateWithRetry, write } from '../store/compare-and-set.js';
import type { Page } from '../use-cases/identities.js';
import type { IssuedWebhook, Webhook, WebhookRecord } from './endpoint.js';
import { newSigningSecret, previewOf, secretContext, toWebhook } from './endpoint.js';
import { releaseEndpointSlot, reserveEndpointSlot } from './endpoint-slots.js';
import { sealSecret } from './secret-box.js';
import { checkDestination, loadWebhook } from './webhook-access.js';
import type { WebhookDeps } from './webhook-deps.js';

const buildRecord = (deps: WebhookDeps, principal: Principal, id: string, input: CreateWebhookBody, secret: string): WebhookRecord => {
  const now = iso(deps.clock.now());
  return {
    id,
    org_id: principal.orgId,
    project_id: principal.projectId,
    url: input.url,
    events: input.events,
    description: input.description ?? null,
    created_at: now,
    updated_at: now,
    secret_sealed: sealSecret(deps.webhooks.secretsKey, secret, secretContext(id)),
    secret_preview: previewOf(secret),
    previous_secret_sealed: null,
    previous_secret_until: null,
    rotated_at: null,
  };
};

/** Writes a new endpoint within the plan's quota; the answer carries its secret, this once. */
const insertWithinQuota = async (deps: WebhookDeps, principal: Principal, input: CreateWebhookBody): Promise<E.Either<DomainError, IssuedWebhook>> => {
  const { webhookEndpoints: limit } = await planLimitsOf(deps, principal.orgId);
  const id = deps.ids.next('wh');
  if (!(await reserveEndpointSlot(deps, principal.orgId, id, limit))) return E.left(quotaExceeded('webhook endpoints', limit, 1));
  const secret = newSigningSecret(deps.ids);
  const record = buildRecord(deps, principal, id, input, secret);
  try {
    await deps.store.insert(C.webhooks, record);
  } catch (error) {
    await releaseEndpointSlot(deps, principal.orgId, id);
    throw error;
  }
  return E.right({ ...toWebhook(record), secret });
};

/** Creates an endpoint: URL rules, then the plan's quota (403 `quota_exceeded`). */
export const createWebhook =
  (deps: WebhookDeps) =>
  (principal: Principal, input: CreateWebhookBody): TE.TaskEither<DomainError, IssuedWebhook> =>
    pipe(
      () => checkDestination(deps, input.url),
      TE.flatMap((url) => () => insertWithinQuota(deps, principal, { ...input, url })),
    );

/** One endpoint of the caller's project. */
export const getWebhook =
  (deps: WebhookDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, Webhook> =>
    pipe(() => loadWebhook(deps, principal, id), TE.map(toWebhook));

/** The project's endpoints, newest first. */
export const listWebhooks =
  (deps: WebhookDeps) =>
  (principal: Principal, page: { readonly limit: number; readonly offset: number }): TE.TaskEither<DomainError, Page<Webhook>> =>
  async () => {
    const where = { org_id: principal.orgId, project_id: principal.projectId };
    return E.right(await findPage(deps.store, C.webhooks, { where, newestBy: 'created_at' }, page, (doc) => toWebhook(doc as unknown as WebhookRecord)));
  };

const patched = (current: WebhookRecord, input: UpdateWebhookBody, now: string): WebhookRecord => ({
  ...current,
  url: input.url ?? current.url,
  events: input.events ?? current.events,
  description: input.description === undefined ? current.description : input.description,
  updated_at: now,
});

/** Changes the URL (checked by the URL rules), events or description of an endpoint. */
export const updateWebhook =
  (deps: WebhookDeps) =>
  (principal: Principal, id: string, input: UpdateWebhookBody): TE.TaskEither<DomainError, Webhook> =>
    pipe(
      () => loadWebhook(deps, principal, id),
      TE.flatMap(() => (input.url === undefined ? TE.right(undefined) : () => checkDestination(deps, input.url!))),
      TE.flatMap((url) => async () => {
        const now = iso(deps.clock.now());
        const change = url === undefined ? input : { ...input, url };
        const outcome = await updateWithRetry<WebhookRecord, WebhookRecord>(deps.store, C.webhooks, id, (current) => {
          const next = patched(current, change, now);
          return write(next, next);
        });
        return outcome === undefined ? E.left(webhookNotFound(id)) : E.right(toWebhook(outcome.result));
      }),
    );

/**
 * Removes an endpoint and gives its quota place back. Deliveries still queued for it end as
 * `failed` when a worker reaches them (the log says why).
 */
export const deleteWebhook =
  (deps: WebhookDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, undefined> =>
    pipe(
      () => loadWebhook(deps, principal, id),
      TE.flatMap((record) => async () => {
        if (!(await deps.store.remove(C.webhooks, record.id))) return E.left(webhookNotFound(id));
        await releaseEndpointSlot(deps, record.org_id, record.id);
        return E.right(undefined);
      }),
    );
