import { ExportResponse, IDENTITY_STATUSES } from '@ephemail/core';
import { z } from 'zod';
import { CONSUMER_RESPONSE_SCHEMAS } from './openapi-consumer.js';
import { WEBHOOK_RESPONSE_SCHEMAS } from './openapi-webhooks.js';

/**
 * Schemas of the answers the identity, message and extraction routes send, for the OpenAPI
 * document (and so for the types `@ephemail/client` generates from it). They are strict, so a
 * test can parse real answers with them and notice a field the document does not describe.
 */

const count = z.number().int().min(0);
const timestamp = z.string().describe('ISO 8601 in UTC with milliseconds.');
const SECRET_TYPES = ['otp', 'magic_link'] as const;
const LINK_KINDS = ['sign_in', 'verify_email', 'password_reset', 'invite', 'other'] as const;
const VERDICTS = ['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy', 'not_checked'] as const;

const Identity = z.strictObject({
  id: z.string().describe('The ident_ id.'),
  email: z.string().describe('The inbox address.'),
  label: z.string(),
  status: z.enum(IDENTITY_STATUSES),
  created_at: timestamp,
  expires_at: timestamp,
  metadata: z.record(z.string(), z.unknown()),
  parent_id: z.string().nullable().describe("The parent's id for a child identity, otherwise null."),
});

const pageOf = (item: z.ZodType) => z.strictObject({ items: z.array(item), total: count, limit: count, offset: count });

const Contributions = z
  .array(z.strictObject({ signal: z.string(), contribution: z.number().describe('What the signal added to the score, in log-odds (two decimals).') }))
  .describe(
    'Only with explain=true: each signal times its weight, largest first by size. With reveal=true every term of the score, the model bias included; ' +
      'without, only the signals of the secret\'s context (none that its characters or length decide). Empty when the engine no longer proposes this secret.',
  );

const Candidate = z.strictObject({
  type: z.enum(SECRET_TYPES),
  redacted_value: z.string(),
  link_kind: z.enum(LINK_KINDS).optional(),
  confidence: z.number(),
  value: z.string().optional().describe('The raw value; only with reveal=true.'),
  explain: Contributions.optional(),
});

const Extraction = z.strictObject({
  id: z.string(),
  identity_id: z.string(),
  message_id: z.string(),
  source_event_id: z.string().describe('The email.received event of the message.'),
  extracted_at: timestamp,
  type: z.enum(SECRET_TYPES),
  has_secret: z.literal(true),
  redacted_value: z.string(),
  value: z.string().optional().describe('The raw code or link; only with reveal=true (secrets:read).'),
  link_kind: z.enum(LINK_KINDS).nullable(),
  confidence: z.number(),
  candidates: z.array(Candidate).describe('Up to 5 ranked candidates, each redacted (with reveal=true, also raw).'),
  runner_up: z
    .boolean()
    .describe('True when type, value, link_kind and confidence are those of a runner-up candidate (a read with type=), false for the winner.'),
  explain: Contributions.optional(),
});

const MailAddress = z.strictObject({ address: z.string(), name: z.string() });

const summaryFields = {
  id: z.string().describe('The msg_ id.'),
  identity_id: z.string(),
  from: MailAddress.describe('Extracted secrets in the name and address are masked unless reveal=true.'),
  to: z.array(MailAddress),
  subject: z.string().describe('Extracted secrets are masked unless reveal=true.'),
  received_at: timestamp,
  size: count.describe('Bytes of the raw message.'),
  extraction_id: z.string().nullable(),
};

const MessageSummary = z.strictObject({ ...summaryFields, attachments: count.describe('How many attachments.') });

const Authentication = z.strictObject({
  checked: z.boolean(),
  spf: z.strictObject({ result: z.enum(VERDICTS), domain: z.string().nullable() }),
  dkim: z.strictObject({
    result: z.enum(VERDICTS),
    aligned: z.boolean(),
    signatures: z.array(
      z.strictObject({ result: z.enum(VERDICTS), domain: z.string().nullable(), selector: z.string().nullable(), aligned: z.boolean() }),
    ),
  }),
  dmarc: z.strictObject({ result: z.enum(VERDICTS), domain: z.string().nullable(), policy: z.string().nullable() }),
});

const Message = z.strictObject({
  ...summaryFields,
  message_id: z.string().describe('The msg_ id again (the same as id).'),
  rfc_message_id: z.string().nullable().describe('The RFC 5322 Message-ID header.'),
  date: z.string().nullable(),
  envelope: z.strictObject({ mail_from: z.string().nullable(), rcpt_to: z.string() }),
  transport: z.enum(['smtp', 'imap']),
  headers: z.record(z.string(), z.array(z.string())).describe('Lowercased name to values; secrets masked unless reveal=true.'),
  text: z.string(),
  html: z.string().describe('Secrets masked on what a reader sees unless reveal=true; empty when html_withheld.'),
  html_withheld: z.boolean().describe('True when a secret could not be located in the HTML with certainty: html is then empty, and only reveal=true (secrets:read) serves it.'),
  truncated: z.boolean(),
  attachments: z.array(z.strictObject({ filename: z.string().nullable(), contentType: z.string(), size: count })),
  authentication: Authentication,
  sha256: z.string(),
});

/** The consumer session probe: never a 401, so a page can ask it first without an error. */
const ConsumerSession = z.strictObject({
  signed_in: z.boolean(),
  email: z.string().optional().describe("The consumer's address; only when signed in."),
  plan: z.enum(['trial', 'human_paid']).optional().describe('Only when signed in.'),
});

/** The response schemas by their component name. */
export const RESPONSE_SCHEMAS = {
  Identity,
  IdentityPage: pageOf(Identity),
  Extraction,
  MessageSummary,
  MessagePage: pageOf(MessageSummary),
  Message,
  Export: ExportResponse,
  ConsumerSession,
  ...CONSUMER_RESPONSE_SCHEMAS,
  ...WEBHOOK_RESPONSE_SCHEMAS,
} as const;

/** A component name a route may give as its `response`. */
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;

/** The schemas as OpenAPI components, pages pointing at their items by `$ref`. */
export const responseComponents = (): Record<string, unknown> => {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(RESPONSE_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io: 'output', uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );
};
