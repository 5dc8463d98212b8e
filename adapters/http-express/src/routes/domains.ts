import type { Ephemail } from '@ephemail/core';
import { EmptyBody, ListDomainsQuery, RegisterDomainBody } from '@ephemail/core';
import type { Route } from './route.js';
import { route } from './route.js';

const ID = '/v1/domains/:domain_id';
const READ = ['domains:read'] as const;
const WRITE = ['domains:write'] as const;
const tag = 'Domains';

/** Custom domains: registration, DNS verification, removal. */
export const domainRoutes = (app: Ephemail): Route[] => [
  route<RegisterDomainBody>({
    method: 'post', path: '/v1/domains', tag, scopes: WRITE, status: 201, body: RegisterDomainBody,
    summary: 'Register a domain: `pending_verification`, with the MX and TXT records to publish.',
    handle: ({ principal, body }) => app.domains.register(principal, body),
  }),
  route<undefined, ListDomainsQuery>({
    method: 'get', path: '/v1/domains', tag, scopes: READ, status: 200, query: ListDomainsQuery,
    summary: 'List the domains of the project, newest first.',
    handle: ({ principal, query }) => app.domains.list(principal, query),
  }),
  route({
    method: 'get', path: ID, tag, scopes: READ, status: 200,
    summary: 'Get a domain with its DNS records and their status.',
    handle: ({ principal, params }) => app.domains.get(principal, params.domain_id!),
  }),
  route({
    method: 'post', path: `${ID}/verify`, tag, scopes: WRITE, status: 200, body: EmptyBody,
    summary: 'Look the MX and TXT records up in DNS: `verified` when both are there, else 422 naming what was found.',
    handle: ({ principal, params }) => app.domains.verify(principal, params.domain_id!),
  }),
  route({
    method: 'delete', path: ID, tag, scopes: WRITE, status: 204,
    summary: 'Remove a domain: identities on it keep receiving mail until they end; no new ones; the name is free again.',
    handle: ({ principal, params }) => app.domains.remove(principal, params.domain_id!),
  }),
];
