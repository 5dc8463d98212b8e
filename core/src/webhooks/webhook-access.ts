import * as E from 'fp-ts/lib/Either.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { invalidRequest, webhookNotFound } from '../domain/errors.js';
import { C } from '../store/collections.js';
import type { WebhookRecord } from './endpoint.js';
import type { WebhookDeps } from './webhook-deps.js';

/** An endpoint of the caller's project. Another tenant's id answers exactly like an unknown one. */
export const loadWebhook = async (
  deps: CoreDeps,
  principal: Pick<Principal, 'orgId' | 'projectId'>,
  id: string,
): Promise<E.Either<DomainError, WebhookRecord>> => {
  const record = (await deps.store.get(C.webhooks, id)) as WebhookRecord | undefined;
  if (record === undefined || record.org_id !== principal.orgId || record.project_id !== principal.projectId) {
    return E.left(webhookNotFound(id));
  }
  return E.right(record);
};

/** The URL rules of the deployment, applied when an endpoint is created or its URL changed. */
export const checkDestination = async (deps: WebhookDeps, url: string): Promise<E.Either<DomainError, string>> => {
  const verdict = await deps.webhooks.urlGuard.check(url, { allowHttpLoopback: deps.config.allowHttpLoopback });
  if (verdict.ok) return E.right(url);
  return E.left(invalidRequest('The webhook URL is not allowed.', [{ path: 'body.url', message: verdict.reason }]));
};
