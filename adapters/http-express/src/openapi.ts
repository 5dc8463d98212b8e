import { EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '@ephemail/core';
import { z } from 'zod';
import { responseComponents } from './openapi-responses.js';
import type { Route } from './routes/route.js';
import { isMutation } from './routes/route.js';

type JsonObject = Record<string, unknown>;

const schemaOf = (schema: z.ZodType): JsonObject => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  return rest;
};

const ERROR_ENVELOPE: JsonObject = {
  type: 'object',
  required: ['error', 'requestId', 'timestamp', 'path', 'retryable'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'object', properties: { requestId: { type: 'string' } }, additionalProperties: true },
      },
    },
    requestId: { type: 'string' },
    timestamp: { type: 'string', format: 'date-time' },
    path: { type: 'string' },
    retryable: { type: 'boolean' },
  },
};

/** Every event's data names its identity; the rest depends on the type (docs/api.md, section 10). */
const EVENT_DATA: JsonObject = {
  type: 'object',
  required: ['identity_id'],
  properties: { identity_id: { type: 'string', description: 'The identity the event concerns (the same as the record\'s).' } },
  additionalProperties: true,
};

const EVENT: JsonObject = {
  type: 'object',
  required: ['id', 'type', 'identity_id', 'occurred_at', 'data'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: [...EVENT_TYPES] },
    identity_id: { type: 'string' },
    occurred_at: { type: 'string', format: 'date-time' },
    data: { $ref: '#/components/schemas/EventData' },
  },
};

const EVENT_PAGE: JsonObject = {
  type: 'object',
  required: ['items', 'total', 'limit', 'offset'],
  properties: {
    items: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
    total: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
  },
};

/** The body of a webhook delivery: what a receiver gets, signed (`X-Signature`, `X-Timestamp`). */
const DELIVERY: JsonObject = {
  type: 'object',
  required: ['id', 'type', 'timestamp', 'data'],
  properties: {
    id: { type: 'string', description: 'The event id; deliveries are at least once, deduplicate on it.' },
    type: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
    timestamp: { type: 'string', format: 'date-time' },
    data: { $ref: '#/components/schemas/EventData' },
  },
};

/** One OpenAPI 3.1 `webhooks` entry per event type an endpoint can subscribe to. */
const webhooksOf = (): JsonObject =>
  Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `A ${type} event delivered to a subscribed endpoint.`,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookDelivery' } } } },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery; anything else is retried.' } },
        },
      },
    ]),
  );

const header = (name: string, description: string, required = true): JsonObject => ({
  name, in: 'header', required, description, schema: { type: 'string' },
});

const parametersOf = (route: Route): JsonObject[] => {
  const path = [...route.path.matchAll(/:([a-z_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  const queryProps = route.query ? ((schemaOf(route.query).properties ?? {}) as Record<string, JsonObject>) : {};
  const query = Object.entries(queryProps).map(([name, schema]) => ({ name, in: 'query', required: false, schema }));
  if (route.auth === 'consumer') return [...path, ...query];
  if (route.auth === 'anonymous') {
    const grant = route.method === 'post' ? [header('X-Anon-Grant', 'A one-time anonymous grant; required when the host has a grant secret.', false)] : [];
    return [...path, ...query, ...grant];
  }
  const required = route.tenantHeaders !== 'optional';
  const tenant = [header('X-Org-Id', 'Organization of the credential.', required), header('X-Project-Id', 'Project of the credential.', required)];
  const idem = isMutation(route) ? [header('Idempotency-Key', 'Unique key of this mutation (at most 255 characters).')] : [];
  return [...path, ...query, ...tenant, ...idem];
};

const operationOf = (route: Route): JsonObject => ({
  summary: route.summary,
  tags: [route.tag],
  ...(route.scopes.length > 0 ? { description: `Scopes: ${route.scopes.join(', ')}.` } : {}),
  parameters: parametersOf(route),
  ...(route.auth === 'anonymous' ? { security: [] } : route.auth === 'consumer' ? { security: [{ consumerSession: [] }, { consumerCookie: [] }] } : {}),
  ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body) } } } } : {}),
  responses: {
    [String(route.status)]: {
      description: 'Success.',
      ...(route.response === undefined ? {} : { content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.response}` } } } }),
    },
    default: { description: 'Error.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  },
});

/**
 * The OpenAPI 3.1 document of the routes, generated from the schemas that validate them;
 * `extraPaths` describes endpoints served outside the route table (the export download).
 */
export const buildOpenApi = (routes: readonly Route[], info: { title: string; version: string }, extraPaths: Readonly<Record<string, JsonObject>> = {}): JsonObject => {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method]: operationOf(route) };
  }
  for (const [path, operations] of Object.entries(extraPaths)) paths[path] = { ...paths[path], ...operations };
  return {
    openapi: '3.1.0',
    info,
    paths,
    webhooks: webhooksOf(),
    components: {
      schemas: { Error: ERROR_ENVELOPE, Event: EVENT, EventPage: EVENT_PAGE, EventData: EVENT_DATA, WebhookDelivery: DELIVERY, ...responseComponents() },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key (aid_...) or access token.' },
        consumerSession: { type: 'http', scheme: 'bearer', description: 'Consumer session token (cst_...).' },
        consumerCookie: { type: 'apiKey', in: 'cookie', name: 'service_consumer_session', description: 'Consumer session cookie; mutations also need X-Requested-With.' },
      },
    },
    security: [{ bearer: [] }],
  };
};
