import type { Ephemail } from '@ephemail/core';
import { ConsumerEmailBody, ConsumerIdentityBody, ConsumerMessageQuery, ConsumerMessagesQuery, ConsumerPageQuery, ConsumerVerifyBody, EmptyBody, SESSION_COOKIE, SESSION_TTL_MS } from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import { sessionFromHeaders } from '../pipeline.js';
import type { Route } from './route.js';
import { route } from './route.js';

const tag = 'Consumer';

/** The session cookie: HttpOnly, Secure, SameSite=Lax, for the session's 30 days. */
const sessionCookie = (token: string, maxAgeSeconds: number): string =>
  `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${maxAgeSeconds}`;

/** People's accounts: magic-link sign-up and sign-in, the session, identities, upgrade. */
export const consumerRoutes = (app: Ephemail): Route[] => [
  route<ConsumerEmailBody>({
    method: 'post', path: '/v1/consumer/signup', tag, scopes: [], status: 200, body: ConsumerEmailBody, auth: 'anonymous',
    summary: 'Create an account and mail it a sign-in link (409 when the address has one).',
    handle: ({ body, clientIp }) => app.consumer.signUp({ email: body.email, clientIp }),
  }),
  route<ConsumerEmailBody>({
    method: 'post', path: '/v1/consumer/login', tag, scopes: [], status: 200, body: ConsumerEmailBody, auth: 'anonymous',
    summary: 'Mail a sign-in link to an existing account (404 when there is none).',
    handle: ({ body, clientIp }) => app.consumer.logIn({ email: body.email, clientIp }),
  }),
  route<ConsumerVerifyBody>({
    method: 'post', path: '/v1/consumer/verify', tag, scopes: [], status: 200, body: ConsumerVerifyBody, auth: 'anonymous',
    headersOf: (body) => ({ 'Set-Cookie': sessionCookie(String((body as { session_token: string }).session_token), SESSION_TTL_MS / 1000) }),
    summary: 'Use a sign-in link once: a 30-day session, as the service_consumer_session cookie and as session_token.',
    handle: ({ body }) => app.consumer.verify(body.token),
  }),
  route({
    method: 'get', path: '/v1/consumer/session', tag, scopes: [], status: 200, auth: 'anonymous', response: 'ConsumerSession',
    summary: 'Whether the request signs someone in: 200 {signed_in: false} when not (never 401), else {signed_in: true, email, plan}.',
    handle: async ({ header }) => E.right(await app.consumer.session(sessionFromHeaders(header).token)),
  }),
  route({
    method: 'post', path: '/v1/consumer/logout', tag, scopes: [], status: 204, body: EmptyBody, auth: 'consumer',
    headersOf: () => ({ 'Set-Cookie': sessionCookie('', 0) }),
    summary: 'End the session at once (the cookie is cleared too).',
    handle: async ({ consumer }) => {
      await app.consumer.logOut(consumer!.sessionId);
      return E.right(undefined);
    },
  }),
  route<undefined, ConsumerPageQuery>({
    method: 'get', path: '/v1/consumer/identities', tag, scopes: [], status: 200, query: ConsumerPageQuery, auth: 'consumer',
    summary: "The consumer's identities, newest first.",
    handle: ({ principal, query }) => app.consumer.identities.list(principal, query),
  }),
  route<ConsumerIdentityBody>({
    method: 'post', path: '/v1/consumer/identities', tag, scopes: [], status: 201, body: ConsumerIdentityBody, auth: 'consumer',
    summary: 'A new identity: at most 3 active on a trial account, 10 when upgraded.',
    handle: ({ principal, consumer, body }) => app.consumer.identities.create(principal, consumer!.record, body),
  }),
  route({
    method: 'get', path: '/v1/consumer/identities/:identity_id/secret', tag, scopes: [], status: 200, auth: 'consumer',
    summary: "The raw code or link of the latest extraction of one of the consumer's own identities (never cached).",
    // This route is the consumer's request to see their secret: core decides they may (ADR 0053).
    handle: ({ principal, params }) => app.consumer.extractions.latest(principal, params.identity_id!, { waitSeconds: 0, reveal: true }),
  }),
  route<undefined, ConsumerMessagesQuery>({
    method: 'get', path: '/v1/consumer/identities/:identity_id/messages', tag, scopes: [], status: 200, query: ConsumerMessagesQuery, auth: 'consumer', response: 'MessagePage',
    summary: "The messages of one of the consumer's own identities, newest first; subjects mask codes and links unless reveal=true.",
    handle: ({ principal, params, query }) => app.consumer.messages.list(principal, params.identity_id!, query),
  }),
  route<undefined, ConsumerMessageQuery>({
    method: 'get', path: '/v1/consumer/identities/:identity_id/messages/:message_id', tag, scopes: [], status: 200, query: ConsumerMessageQuery, auth: 'consumer', response: 'Message',
    summary: "One message of one of the consumer's own identities: sender, subject, text and HTML; codes and links masked unless reveal=true.",
    handle: ({ principal, params, query }) => app.consumer.messages.get(principal, params.identity_id!, params.message_id!, { reveal: query.reveal }),
  }),
  route<undefined, ConsumerPageQuery>({
    method: 'get', path: '/v1/consumer/notifications', tag, scopes: [], status: 200, query: ConsumerPageQuery, auth: 'consumer', response: 'NotificationPage',
    summary: "The consumer's notifications, newest first: a code or link arrived (redacted; the secret is mailed to the consumer).",
    handle: ({ principal, query }) => app.consumer.notifications.list(principal, query),
  }),
  route({
    method: 'post', path: '/v1/consumer/notifications/:notification_id/read', tag, scopes: [], status: 200, body: EmptyBody, auth: 'consumer', response: 'Notification',
    summary: 'Mark a notification read.',
    handle: ({ principal, params }) => app.consumer.notifications.markRead(principal, params.notification_id!),
  }),
  route({
    method: 'post', path: '/v1/consumer/upgrade', tag, scopes: [], status: 200, body: EmptyBody, auth: 'consumer',
    summary: 'A checkout for the human_paid plan; completing it upgrades the account.',
    handle: ({ consumer }) => app.consumer.upgrade(consumer!.record),
  }),
];
