import type { Ephemail } from '@ephemail/core';
import {
  CreateWebhookBody,
  EmptyBody,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  ReplayWebhookBody,
  UpdateWebhookBody,
} from '@ephemail/core';
import type { Route } from './route.js';
import { route } from './route.js';

const ID = '/v1/webhooks/:webhook_id';
const READ = ['webhooks:read'] as const;
const WRITE = ['webhooks:write'] as const;
const tag = 'Webhooks';

/**
 * Webhook endpoints, their secrets and their delivery log. The create and rotate answers carry
 * a secret; like every /v1 answer they are sent with `Cache-Control: no-store`.
 */
export const webhookRoutes = (app: Ephemail): Route[] => [
  route<CreateWebhookBody>({
    method: 'post', path: '/v1/webhooks', tag, scopes: WRITE, status: 201, body: CreateWebhookBody,
    summary: 'Create an endpoint; the answer shows its signing secret, this once.',
    handle: ({ principal, body }) => app.webhooks.create(principal, body),
  }),
  route<undefined, ListWebhooksQuery>({
    method: 'get', path: '/v1/webhooks', tag, scopes: READ, status: 200, query: ListWebhooksQuery,
    summary: 'List the endpoints of the project, newest first.',
    handle: ({ principal, query }) => app.webhooks.list(principal, query),
  }),
  route({
    method: 'get', path: ID, tag, scopes: READ, status: 200,
    summary: 'Get an endpoint (its secret only as a masked preview).',
    handle: ({ principal, params }) => app.webhooks.get(principal, params.webhook_id!),
  }),
  route<UpdateWebhookBody>({
    method: 'patch', path: ID, tag, scopes: WRITE, status: 200, body: UpdateWebhookBody,
    summary: 'Change the URL, events or description of an endpoint.',
    handle: ({ principal, params, body }) => app.webhooks.update(principal, params.webhook_id!, body),
  }),
  route({
    method: 'delete', path: ID, tag, scopes: WRITE, status: 204,
    summary: 'Delete an endpoint; its queued deliveries end failed.',
    handle: ({ principal, params }) => app.webhooks.remove(principal, params.webhook_id!),
  }),
  route({
    method: 'post', path: `${ID}/rotate-secret`, tag, scopes: WRITE, status: 200, body: EmptyBody,
    summary: 'Issue a new signing secret; the previous one keeps verifying for 24 hours.',
    handle: ({ principal, params }) => app.webhooks.rotateSecret(principal, params.webhook_id!),
  }),
  route<ReplayWebhookBody>({
    method: 'post', path: `${ID}/replay`, tag, scopes: WRITE, status: 202, body: ReplayWebhookBody,
    summary: 'Deliver an event to the endpoint again (same event id, fresh timestamp and signature).',
    handle: ({ principal, params, body }) => app.webhooks.replay(principal, params.webhook_id!, body.event_id),
  }),
  route<undefined, ListDeliveriesQuery>({
    method: 'get', path: `${ID}/deliveries`, tag, scopes: READ, status: 200, query: ListDeliveriesQuery, response: 'DeliveryAttemptPage',
    summary: 'The delivery log of the endpoint: every attempt, newest first (a delivery retried three times shows three rows).',
    handle: ({ principal, params, query }) => app.webhooks.attempts(principal, params.webhook_id!, query),
  }),
];
