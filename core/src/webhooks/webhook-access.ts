import * as E from 'fp-ts/lib/Either.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { invalidRequest, webhookNotFound } from '../domain/errors.js';
import { normalizeDestinationUrl } from '../domain/destination-url.js';
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

/**
 * The URL rules, applied when an endpoint is created or its URL changed: the rules of every
 * destination ({@link normalizeDestinationUrl}), then the deployment's URL guard. Answers the
 * normalised URL, the one to store.
 */
export const checkDestination = async (deps: WebhookDeps, raw: string): Promise<E.Either<DomainError, string>> => {
  const refused = (reason: string) => E.left(invalidRequest('The webhook URL is not allowed.', [{ path: 'body.url', message: reason }]));
  const normal = normalizeDestinationUrl(raw);
  if (!normal.ok) return refused(normal.reason);
  const verdict = await deps.webhooks.urlGuard.check(normal.url, { allowHttpLoopback: deps.config.allowHttpLoopback });
  return verdict.ok ? E.right(normal.url) : refused(verdict.reason);
};
