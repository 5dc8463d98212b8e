import type { Ephemail } from '@ephemail/core';
import { LatestEventQuery, LatestExtractionQuery, ListMessagesQuery, MessageQuery } from '@ephemail/core';
import type { Route } from './route.js';
import { route } from './route.js';

const ID = '/v1/identities/:identity_id';
const READ = ['identities:read'] as const;

/** What mail brought: the latest extraction and event (with long-poll), and the messages. */
export const mailRoutes = (app: Ephemail): Route[] => [
  route<undefined, LatestExtractionQuery>({
    method: 'get', path: `${ID}/extractions/latest`, tag: 'Extractions', scopes: READ, status: 200, query: LatestExtractionQuery, response: 'Extraction',
    summary:
      'The latest extraction, redacted; `type` the latest holding a secret of that type (a sure runner-up included), `wait` long-polls ' +
      '(409 at once on a squashed or expired identity), `reveal=true` (secrets:read) shows raw values, `explain=true` the signal contributions behind each.',
    handle: ({ principal, params, query, signal }) =>
      app.extractions.latest(principal, params.identity_id!, { waitSeconds: query.wait, after: query.after, type: query.type, explain: query.explain, reveal: query.reveal, signal }),
  }),
  route<undefined, LatestEventQuery>({
    method: 'get', path: `${ID}/events/latest`, tag: 'Events', scopes: READ, status: 200, query: LatestEventQuery, response: 'Event',
    summary: "The identity's most recent event; `wait` long-polls for one (other than `after`), 409 at once on a squashed or expired identity.",
    handle: ({ principal, params, query, signal }) =>
      app.events.latestWaiting(principal, params.identity_id!, { waitSeconds: query.wait, after: query.after, signal }),
  }),
  route<undefined, ListMessagesQuery>({
    method: 'get', path: `${ID}/messages`, tag: 'Messages', scopes: READ, status: 200, query: ListMessagesQuery, response: 'MessagePage',
    summary: "The identity's messages, newest first; subjects hide extracted secrets unless `reveal=true` (secrets:read).",
    handle: ({ principal, params, query }) => app.messages.list(principal, params.identity_id!, query),
  }),
  route<undefined, MessageQuery>({
    method: 'get', path: `${ID}/messages/:message_id`, tag: 'Messages', scopes: READ, status: 200, query: MessageQuery, response: 'Message',
    summary: 'One message: headers, text, html, attachment metadata, SPF/DKIM/DMARC results; extracted secrets hidden unless `reveal=true` (secrets:read).',
    handle: ({ principal, params, query }) => app.messages.get(principal, params.identity_id!, params.message_id!, { reveal: query.reveal }),
  }),
  route({
    method: 'get', path: `${ID}/messages/:message_id/raw`, tag: 'Messages', scopes: ['identities:read', 'secrets:read'], status: 200,
    contentType: 'message/rfc822',
    summary: 'The message exactly as received (message/rfc822).',
    handle: ({ principal, params }) => app.messages.raw(principal, params.identity_id!, params.message_id!),
  }),
];
