import type { Ephemail } from '@ephemail/core';
import {
  BulkCreateBody,
  BulkSquashBody,
  CreateChildBody,
  CreateIdentityBody,
  EmptyBody,
  ExtendIdentityBody,
  ListIdentitiesQuery,
  pageQuery,
} from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import { toHttpError } from '../errors.js';
import type { Route } from './route.js';
import { route } from './route.js';

const ID = '/v1/identities/:identity_id';
const READ = ['identities:read'] as const;
const WRITE = ['identities:write'] as const;
const tag = 'Identities';

/** The identity routes of the spec, on the given service. */
export const identityRoutes = (app: Ephemail): Route[] => [
  route<CreateIdentityBody>({
    method: 'post', path: '/v1/identities', tag, scopes: WRITE, status: 201, body: CreateIdentityBody, response: 'Identity',
    summary: 'Create an identity (status provisioned).',
    handle: ({ principal, body }) => app.identities.create(principal, body),
  }),
  route<undefined, ListIdentitiesQuery>({
    method: 'get', path: '/v1/identities', tag, scopes: READ, status: 200, query: ListIdentitiesQuery, response: 'IdentityPage',
    summary: 'List the identities of the project, newest first.',
    handle: ({ principal, query }) => app.identities.list(principal, query),
  }),
  route<BulkCreateBody>({
    method: 'post', path: '/v1/identities/bulk', tag, scopes: WRITE, status: 201, body: BulkCreateBody,
    summary: 'Create a batch of identities, all or nothing against the quota.',
    handle: ({ principal, body }) => app.identities.bulkCreate(principal, body),
  }),
  route<BulkSquashBody>({
    method: 'post', path: '/v1/identities/bulk-squash', tag, scopes: WRITE, status: 200, body: BulkSquashBody,
    summary: 'Squash several identities; each failure is reported per item.',
    handle: async ({ principal, body }) =>
      E.map((result: { squashed: string[]; failed: { id: string; error: Parameters<typeof toHttpError>[0] }[] }) => ({
        squashed: result.squashed,
        failed: result.failed.map(({ id, error }) => ({ id, code: toHttpError(error).code })),
      }))(await app.identities.bulkSquash(principal, body.identity_ids)),
  }),
  route({
    method: 'get', path: ID, tag, scopes: READ, status: 200, response: 'Identity',
    summary: 'Get an identity.',
    handle: ({ principal, params }) => app.identities.get(principal, params.identity_id!),
  }),
  route<ExtendIdentityBody>({
    method: 'post', path: `${ID}/extend`, tag, scopes: WRITE, status: 200, body: ExtendIdentityBody, response: 'Identity',
    summary: 'Extend the TTL of a live identity; its status becomes extended.',
    handle: ({ principal, params, body }) => app.identities.extend(principal, params.identity_id!, body.additional_hours),
  }),
  route({
    method: 'post', path: `${ID}/squash`, tag, scopes: WRITE, status: 200, body: EmptyBody, response: 'Identity',
    summary: 'Squash an identity (irreversible).',
    handle: ({ principal, params }) => app.identities.squash(principal, params.identity_id!),
  }),
  route<CreateChildBody>({
    method: 'post', path: `${ID}/children`, tag, scopes: WRITE, status: 201, body: CreateChildBody, response: 'Identity',
    summary: "Create a child identity (TTL defaults to the parent's, capped at its expiry).",
    handle: ({ principal, params, body }) => app.identities.createChild(principal, params.identity_id!, body),
  }),
  route({
    method: 'delete', path: `${ID}/children`, tag, scopes: WRITE, status: 200,
    summary: 'Squash every live descendant of the identity.',
    handle: ({ principal, params }) => app.identities.revokeChildren(principal, params.identity_id!),
  }),
  route({
    method: 'get', path: `${ID}/lineage`, tag, scopes: READ, status: 200,
    summary: 'The lineage tree the identity belongs to.',
    handle: ({ principal, params }) => app.identities.lineage(principal, params.identity_id!),
  }),
  route<undefined, { limit: number; offset: number }>({
    method: 'get', path: `${ID}/events`, tag: 'Events', scopes: READ, status: 200, query: pageQuery(50, 200), response: 'EventPage',
    summary: "The identity's events, newest first.",
    handle: ({ principal, params, query }) => app.events.list(principal, params.identity_id!, query),
  }),
];
