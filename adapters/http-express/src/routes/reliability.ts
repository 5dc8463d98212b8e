import type { Ephemail } from '@ephemail/core';
import { CreateRunBody, forbidden } from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import type { Route } from './route.js';
import { route } from './route.js';

const ID = '/v1/reliability/:run_id';
const WRITE = ['reliability:write'] as const;
const tag = 'Reliability runs';

/** Reading a run needs `reliability:write` or `identities:read` (either will do). */
const READERS = ['reliability:write', 'identities:read'];

/** Auth-flow reliability runs: trigger a flow at a URL, time the mail it sends. */
export const reliabilityRoutes = (app: Ephemail): Route[] => [
  route<CreateRunBody>({
    method: 'post', path: '/v1/reliability/password-reset', tag, scopes: WRITE, status: 201, body: CreateRunBody,
    summary: "Start a password-reset run: the service POSTs the identity's address to `target_url` and times the mail.",
    handle: ({ principal, body }) => app.reliability.passwordReset(principal, body),
  }),
  route<CreateRunBody>({
    method: 'post', path: '/v1/reliability/invite', tag, scopes: WRITE, status: 201, body: CreateRunBody,
    summary: "Start an invite run: the service POSTs the identity's address to `target_url` and times the invitation mail.",
    handle: ({ principal, body }) => app.reliability.invite(principal, body),
  }),
  route({
    method: 'get', path: ID, tag, scopes: [], status: 200,
    summary: 'A run: status, timings and the redacted result. Needs reliability:write or identities:read.',
    handle: async ({ principal, params }) =>
      READERS.some((scope) => principal.scopes.includes(scope)) ? app.reliability.get(principal, params.run_id!) : E.left(forbidden(READERS, 'Reading a run needs reliability:write or identities:read.')),
  }),
  route({
    method: 'get', path: `${ID}/secret`, tag, scopes: [], status: 200,
    summary: 'The raw code or link a completed run found, while its identity lives (never cached). Needs secrets:read.',
    // This route is a request to reveal: core refuses it without secrets:read.
    handle: ({ principal, params }) => app.reliability.secret(principal, params.run_id!, { reveal: true }),
  }),
];
