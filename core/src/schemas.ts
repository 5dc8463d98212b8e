import { z } from 'zod';
import { ACCESS_TOKEN_TTL } from './auth/access-tokens.js';
import { EXTEND_HOURS, IDENTITY_STATUSES, TTL_HOURS } from './domain/identity.js';
import { jsonProblem, MAX_METADATA_DEPTH } from './domain/json-depth.js';
import { SCOPES } from './domain/scopes.js';
import { WEBHOOK_EVENT_TYPES } from './webhooks/event-types.js';

/**
 * Request schemas of the /v1 API. The HTTP adapter validates with them and generates the
 * OpenAPI document from them, so validation and documentation cannot drift apart.
 */

const label = z.string().trim().min(1).max(200).describe('Human-readable name of the identity.');
const ttlHours = z
  .number()
  .int()
  .min(TTL_HOURS.min)
  .max(TTL_HOURS.max)
  .describe(`Lifetime in hours, ${TTL_HOURS.min}..${TTL_HOURS.max}.`);
// Checked and normalised (IDN to punycode) by the use case: domains/hostname.ts.
const hostname = z.string().trim().min(1).max(253);
// Values are checked by one iterative walk rather than z.json, which recurses: a value nested
// thousands of levels deep must be answered 400, not overflow the stack.
const metadata = z
  .record(z.string().max(100), z.unknown())
  .superRefine((value, ctx) => {
    const problem = jsonProblem(value, MAX_METADATA_DEPTH);
    if (problem === 'too_deep') return ctx.addIssue({ code: 'custom', message: `nested deeper than ${MAX_METADATA_DEPTH} levels` });
    if (problem === 'not_json') return ctx.addIssue({ code: 'custom', message: 'values must be JSON' });
    if (Object.keys(value).length > 50) ctx.addIssue({ code: 'custom', message: 'at most 50 keys' });
    if (JSON.stringify(value).length > 8192) ctx.addIssue({ code: 'custom', message: 'at most 8 KiB as JSON' });
  })
  .describe(`Arbitrary key-value pairs kept with the identity: at most 50 keys, 8 KiB as JSON, ${MAX_METADATA_DEPTH} levels deep.`);
const identityId = z.string().min(1).max(100);

export const CreateIdentityBody = z.strictObject({
  label,
  domain: hostname.optional().describe('Mail domain; default the inbox domain.'),
  ttl_hours: ttlHours.optional(),
  metadata: metadata.optional(),
});
export type CreateIdentityBody = z.infer<typeof CreateIdentityBody>;

export const RegisterDomainBody = z.strictObject({
  domain: hostname.describe('The hostname to receive mail for (an internationalised name is stored in punycode).'),
});
export type RegisterDomainBody = z.infer<typeof RegisterDomainBody>;

export const ExtendIdentityBody = z.strictObject({
  additional_hours: z.number().int().min(EXTEND_HOURS.min).max(EXTEND_HOURS.max),
});
export type ExtendIdentityBody = z.infer<typeof ExtendIdentityBody>;

export const CreateChildBody = z.strictObject({
  label,
  ttl_hours: ttlHours.optional().describe("Default: the parent's TTL, capped at the parent's expiry."),
});
export type CreateChildBody = z.infer<typeof CreateChildBody>;

export const BulkCreateBody = z.strictObject({
  // No upper bound here: the plan's batch size is checked in core (400 batch_too_large), and the
  // 1 MiB body limit bounds the array.
  identities: z.array(z.strictObject({ label, ttl_hours: ttlHours.optional() })).min(1),
});
export type BulkCreateBody = z.infer<typeof BulkCreateBody>;

export const BulkSquashBody = z.strictObject({
  identity_ids: z.array(identityId).min(1).max(200),
});
export type BulkSquashBody = z.infer<typeof BulkSquashBody>;

/** Query numbers arrive as strings; limits above the maximum are refused, not clamped. */
const pageNumber = (max: number | undefined, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a non-negative integer')
    .transform(Number)
    .pipe(max === undefined ? z.number().int().min(0) : z.number().int().min(1).max(max))
    .optional()
    .transform((value) => value ?? fallback);

export const pageQuery = (defaultLimit: number, maxLimit: number) =>
  z.strictObject({ limit: pageNumber(maxLimit, defaultLimit), offset: pageNumber(undefined, 0) });

export const ListIdentitiesQuery = pageQuery(50, 200).extend({
  status: z.enum(IDENTITY_STATUSES).optional(),
  label: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('Only identities whose label starts with this text, ignoring case, width and repeated spaces; ordered by label then.'),
});
export type ListIdentitiesQuery = z.infer<typeof ListIdentitiesQuery>;

export const TokenExchangeBody = z.strictObject({
  scopes: z.array(z.enum(SCOPES)).min(1),
  ttl_seconds: z
    .number()
    .int()
    .min(ACCESS_TOKEN_TTL.min)
    .max(ACCESS_TOKEN_TTL.max)
    .optional()
    .transform((value) => value ?? ACCESS_TOKEN_TTL.default),
});
export type TokenExchangeBody = z.infer<typeof TokenExchangeBody>;

export const EmptyBody = z.strictObject({});

/** Long-poll: hold the request up to `wait` seconds (0..60) for a result other than `after`. */
const waitFields = {
  wait: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of seconds')
    .transform(Number)
    .pipe(z.number().int().min(0).max(60))
    .optional()
    .transform((value) => value ?? 0)
    .describe('Seconds to wait for a result, 0..60.'),
  after: z.string().min(1).max(100).optional().describe('Wait for a result other than this id.'),
};

export const LatestEventQuery = z.strictObject(waitFields);
export type LatestEventQuery = z.infer<typeof LatestEventQuery>;

const revealField = {
  reveal: z.enum(['true', 'false']).optional().transform((value) => value === 'true').describe('Raw values; needs secrets:read.'),
};

export const LatestExtractionQuery = z.strictObject({
  ...waitFields,
  ...revealField,
  type: z
    .enum(['otp', 'magic_link'])
    .optional()
    .describe('Only a secret of this type: the latest extraction holding one, as its winner or as a runner-up of confidence ≥ 0.5.'),
  explain: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe('Also the signal contributions behind the secret shown and each candidate, largest first (worked out again from the stored message).'),
});
export type LatestExtractionQuery = z.infer<typeof LatestExtractionQuery>;

export const ListMessagesQuery = pageQuery(50, 200).extend(revealField);
export type ListMessagesQuery = z.infer<typeof ListMessagesQuery>;

export const MessageQuery = z.strictObject(revealField);
export type MessageQuery = z.infer<typeof MessageQuery>;

const webhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .describe('Destination: https:// only (plain http:// to loopback only in development mode).');
const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .refine((events) => new Set(events).size === events.length, 'each event type at most once')
  .describe('Event types delivered to the endpoint.');
const webhookDescription = z.string().trim().max(500);

export const CreateWebhookBody = z.strictObject({
  url: webhookUrl,
  events: webhookEvents,
  description: webhookDescription.optional(),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .strictObject({
    url: webhookUrl.optional(),
    events: webhookEvents.optional(),
    description: webhookDescription.nullable().optional().describe('null removes the description.'),
  })
  .refine((body) => Object.keys(body).length > 0, 'nothing to change: send url, events or description');
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const ReplayWebhookBody = z.strictObject({
  event_id: z.string().min(1).max(100).describe('The event to deliver again (evt_...).'),
});
export type ReplayWebhookBody = z.infer<typeof ReplayWebhookBody>;

export const ListWebhooksQuery = pageQuery(50, 200);
export type ListWebhooksQuery = z.infer<typeof ListWebhooksQuery>;

export const ListDeliveriesQuery = pageQuery(50, 200).extend({
  state: z.enum(['pending', 'delivered', 'failed']).optional().describe('Only attempts after which the delivery was in this state (pending: a retry was scheduled).'),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

export const ListDomainsQuery = pageQuery(50, 200);
export type ListDomainsQuery = z.infer<typeof ListDomainsQuery>;

/** Bounds of a reliability run's `timeout_seconds`. */
export const RUN_TIMEOUT_SECONDS = { min: 1, max: 3600, default: 120 } as const;

const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, 'must be an HTTP header name')
  .refine((name) => !['host', 'content-length', 'connection', 'transfer-encoding', 'upgrade', 'te', 'keep-alive', 'proxy-authorization', 'expect'].includes(name.toLowerCase()), 'is set by the service');

export const CreateRunBody = z.strictObject({
  target_url: z.string().trim().min(1).max(2048).describe('Where the service triggers the flow: https:// only (plain http:// to loopback only in development mode).'),
  identity_id: z.string().min(1).max(100).describe('A live identity of the project: its address is sent to the target.'),
  timeout_seconds: z
    .number()
    .int()
    .min(RUN_TIMEOUT_SECONDS.min)
    .max(RUN_TIMEOUT_SECONDS.max)
    .optional()
    .describe(`Seconds to wait for the mail after the trigger, ${RUN_TIMEOUT_SECONDS.min}..${RUN_TIMEOUT_SECONDS.max} (default ${RUN_TIMEOUT_SECONDS.default}).`),
  request: z
    .strictObject({
      headers: z
        .record(headerName, z.string().max(1024).regex(/^[^\r\n\0]*$/, 'must be one line'))
        .refine((headers) => Object.keys(headers).length <= 20, 'at most 20 headers')
        .optional(),
      body_template: z.string().max(8192).optional().describe('The body; every {{email}} becomes the address. Default {"email": "<address>"}.'),
      content_type: z.string().max(200).regex(/^[^\r\n]*$/).optional().describe('Default application/json.'),
    })
    .optional()
    .describe('How to shape the trigger request for a form that needs more than {"email": …}. Header values are never shown back.'),
});
export type CreateRunBody = z.infer<typeof CreateRunBody>;

// The plan is checked by the use case, which answers the spec's `invalid_plan` (not invalid_request).
export const CheckoutBody = z.strictObject({ plan: z.string().min(1).max(50).describe('starter, growth, pro or enterprise.') });
export type CheckoutBody = z.infer<typeof CheckoutBody>;

export const StartTrialBody = z.strictObject({ plan: z.string().min(1).max(50).describe('starter, growth or pro.') });
export type StartTrialBody = z.infer<typeof StartTrialBody>;

export const ListInvoicesQuery = pageQuery(20, 100);
export type ListInvoicesQuery = z.infer<typeof ListInvoicesQuery>;

export const InvoicePdfBody = z.strictObject({ download_token: z.string().min(1).max(200).describe('The one-time token from .../download-token.') });
export type InvoicePdfBody = z.infer<typeof InvoicePdfBody>;

export const CreateFreeIdentityBody = z.strictObject({ label: z.string().trim().min(1).max(200).optional() });
export type CreateFreeIdentityBody = z.infer<typeof CreateFreeIdentityBody>;

export const FreeTokenQuery = z.strictObject({ token: z.string().min(1).max(200).describe('The ftok_ token answered at creation.') });
export type FreeTokenQuery = z.infer<typeof FreeTokenQuery>;

export const ConsumerEmailBody = z.strictObject({ email: z.email().max(254).describe('The address to sign up or sign in with.') });
export type ConsumerEmailBody = z.infer<typeof ConsumerEmailBody>;

export const ConsumerVerifyBody = z.strictObject({ token: z.string().min(1).max(200).describe('The token of the emailed link.') });
export type ConsumerVerifyBody = z.infer<typeof ConsumerVerifyBody>;

export const ConsumerIdentityBody = z.strictObject({ label: z.string().trim().min(1).max(200) });
export type ConsumerIdentityBody = z.infer<typeof ConsumerIdentityBody>;

export const ConsumerPageQuery = pageQuery(20, 100);
export type ConsumerPageQuery = z.infer<typeof ConsumerPageQuery>;
