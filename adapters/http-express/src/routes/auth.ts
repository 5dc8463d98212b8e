import type { Ephemail } from '@ephemail/core';
import { TokenExchangeBody } from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import type { Route } from './route.js';
import { route } from './route.js';

const tag = 'Authentication';

/** Token exchange and the caller's profile. */
export const authRoutes = (app: Ephemail): Route[] => [
  route<TokenExchangeBody>({
    method: 'post', path: '/v1/auth/tokens', tag, scopes: [], status: 200, body: TokenExchangeBody,
    summary: 'Exchange the credential for a short-lived access token with a subset of its scopes.',
    handle: ({ principal, body }) => app.auth.exchangeToken(principal, body),
  }),
  route({
    method: 'get', path: '/v1/me', tag, scopes: [], status: 200, tenantHeaders: 'optional',
    summary: 'The organization, project and scopes of the credential, and every project it covers; tenant headers optional.',
    handle: async ({ principal }) =>
      E.right({
        organization_id: principal.orgId,
        // Without tenant headers, a key of several projects has no one project yet: the caller picks.
        project_id: principal.projectId === '' ? null : principal.projectId,
        projects: principal.projects ?? [principal.projectId],
        scopes: principal.scopes,
      }),
  }),
];
