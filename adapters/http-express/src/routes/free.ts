import type { Ephemail } from '@ephemail/core';
import { CreateFreeIdentityBody, FreeTokenQuery } from '@ephemail/core';
import type { Route } from './route.js';
import { route } from './route.js';

const tag = 'Free tier';

/** The anonymous free tier: one identity per client address, read with its token. */
export const freeRoutes = (app: Ephemail): Route[] => [
  route<CreateFreeIdentityBody>({
    method: 'post', path: '/v1/free/identity', tag, scopes: [], status: 201, body: CreateFreeIdentityBody, auth: 'anonymous',
    summary: 'A free identity for 24 hours: one per client address; needs X-Anon-Grant when the host has a grant secret. The token is shown once.',
    handle: ({ body, clientIp, header }) => app.free.create({ ...(body.label === undefined ? {} : { label: body.label }), clientIp, grant: header('X-Anon-Grant') }),
  }),
  route<undefined, FreeTokenQuery>({
    method: 'get', path: '/v1/free/identity/:free_id', tag, scopes: [], status: 200, query: FreeTokenQuery, auth: 'anonymous',
    summary: 'The free identity, read with its token.',
    handle: ({ params, query, clientIp }) => app.free.get(params.free_id!, query.token, clientIp),
  }),
  route<undefined, FreeTokenQuery>({
    method: 'get', path: '/v1/free/identity/:free_id/extraction', tag, scopes: [], status: 200, query: FreeTokenQuery, auth: 'anonymous',
    statusOf: (body) => ((body as { status?: string }).status === 'pending' ? 202 : 200),
    summary: 'The latest code or link, redacted: 202 `pending` with `retryAfterSeconds` until one arrives.',
    handle: ({ params, query, clientIp }) => app.free.extraction(params.free_id!, query.token, clientIp),
  }),
];
