import { z } from 'zod';

/**
 * What the consumer routes answer, for the OpenAPI document: notifications, and the live inbox
 * (`GET /v1/consumer/inbox`), which is served outside the route table as Server-Sent Events.
 */

const timestamp = z.string().describe('ISO 8601 in UTC with milliseconds.');
const SECRET_TYPES = ['otp', 'magic_link'] as const;

const Notification = z.strictObject({
  id: z.string().describe('The notif_ id.'),
  type: z.literal('extraction.completed').describe('The event that caused the notification.'),
  secret_type: z.enum(SECRET_TYPES).describe('The kind of secret that arrived: a code (otp) or a link (magic_link).'),
  title: z.string(),
  body: z.string().describe('The redacted value and where the secret was mailed; never the raw secret.'),
  read: z.boolean(),
  created_at: timestamp,
  identity_id: z.string(),
});

/** `data` of an `inbound.received` event of the inbox stream. */
const InboxMessageData = z.strictObject({
  identity_id: z.string(),
  message_id: z.string(),
  from: z.string().describe('The sender address.'),
  subject: z.string().describe('Secrets in it are masked.'),
  size: z.number().int().min(0).describe('Bytes of the raw message.'),
  received_at: timestamp,
});

/** `data` of an `extraction.completed` event of the inbox stream. */
const InboxExtractionData = z.strictObject({
  identity_id: z.string(),
  message_id: z.string(),
  type: z.enum(SECRET_TYPES),
  redacted_value: z.string().describe('The raw secret is only at GET /v1/consumer/identities/{identity_id}/secret.'),
  confidence: z.number(),
});

export const CONSUMER_RESPONSE_SCHEMAS = {
  Notification,
  NotificationPage: z.strictObject({ items: z.array(Notification), total: z.number().int().min(0), limit: z.number().int().min(0), offset: z.number().int().min(0) }),
  InboxMessageData,
  InboxExtractionData,
} as const;

/** One frame of the stream: `id: <log position>`, `event: <name>`, `data: <JSON>`. */
const frame = (name: string, data: string): Record<string, unknown> => ({
  type: 'object',
  required: ['id', 'event', 'data'],
  properties: {
    id: { type: 'string', description: "The event's position in the event log; send it back as Last-Event-ID to resume." },
    event: { const: name },
    data: { $ref: `#/components/schemas/${data}`, description: 'One line of JSON.' },
  },
});

const STREAM_DESCRIPTION = [
  "Server-Sent Events of the consumer's identities: `event: inbound.received` (data: InboxMessageData) when mail arrives,",
  '`event: extraction.completed` (data: InboxExtractionData, redacted) when a code or link was found in it.',
  "Each event's `id` is its position in the event log. The stream opens with `retry: 2000`; a comment line (`: keep-alive`)",
  'every 15 s keeps idle connections open. Without Last-Event-ID the stream starts at the newest event.',
].join(' ');

/** The OpenAPI operation of `GET /v1/consumer/inbox`. */
export const consumerInboxOperation = {
  get: {
    summary: "The consumer's live inbox: mail and its redacted codes and links as they arrive (Server-Sent Events).",
    description: STREAM_DESCRIPTION,
    tags: ['Consumer'],
    security: [{ consumerSession: [] }, { consumerCookie: [] }],
    parameters: [
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: 'Resume after this event id: every event logged after it is sent, nothing lost between connections.',
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
    ],
    responses: {
      '200': {
        description: 'An endless text/event-stream (never cached).',
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: STREAM_DESCRIPTION },
            // OpenAPI 3.2's schema of each event of a sequential media type; 3.1 tools ignore it.
            itemSchema: { oneOf: [frame('inbound.received', 'InboxMessageData'), frame('extraction.completed', 'InboxExtractionData')] },
          },
        },
      },
      default: { description: 'Error: 401 unauthorized without a session, 401 session_expired.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  },
} as const;
