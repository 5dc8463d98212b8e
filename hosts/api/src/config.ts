import { isPlanName, PLAN_NAMES, SCOPES } from '@ephemail/core';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { crossFieldIssues, DEFAULT_DATABASE_URL, isSharedStoreUrl, MONGODB_URL } from './config-rules.js';

const csv = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim()).filter((part) => part.length > 0));

const DEVELOPMENT_DOMAIN = 'inbox.localhost';



const bool = z.enum(['true', 'false']).transform((value) => value === 'true');

/** One upstream mailbox of IMAP_MAILBOXES. */
const ImapMailbox = z
  .strictObject({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65_535),
    secure: z.boolean(),
    user: z.string().min(1),
    password: z.string().min(1).optional(),
    accessToken: z.string().min(1).optional(),
    folder: z.string().min(1).optional(),
    // The mailbox's label in /metrics (ephemail_imap_*); default its index in the list.
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, _ . -').optional(),
  })
  .refine((m) => (m.password === undefined) !== (m.accessToken === undefined), 'give exactly one of password and accessToken');

/** Environment variables the host reads, once, at start-up. README's configuration table lists them. */
const EnvShape = z.object({
    EPHEMAIL_MODE: z.enum(['development', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z
      .string()
      .regex(/^(sqlite:.+|memory:|mongodb(\+srv)?:\/\/.+)$/, 'must be sqlite:<path>, memory: or mongodb://…')
      .default(DEFAULT_DATABASE_URL),
    INBOX_DOMAIN: z.string().regex(/^[a-z0-9.-]+$/i, 'must be a domain name').optional(),
    BOOTSTRAP_API_KEY: z
      .string()
      .regex(/^aid_[A-Za-z0-9]{16}_[A-Za-z0-9]{40}$/, 'must look like aid_<16 alphanumerics>_<40 alphanumerics>')
      .optional(),
    BOOTSTRAP_ORG_ID: z.string().min(1).max(100).default('org_dev'),
    BOOTSTRAP_PROJECT_ID: z.string().min(1).max(100).default('proj_dev'),
    BOOTSTRAP_SCOPES: csv.pipe(z.array(z.enum(SCOPES))).default([...SCOPES]),
    BOOTSTRAP_PLAN: z.string().refine(isPlanName, `must be one of ${PLAN_NAMES.join(', ')}`).default('pro'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((value) => (value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value)),
    MAINTENANCE_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(1000),
    SMTP_ENABLED: bool.default(true),
    SMTP_PORT: z.coerce.number().int().min(0).max(65_535).default(2525),
    SMTP_HOST: z.string().min(1).optional(),
    SMTP_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).default(25 * 1024 * 1024),
    // Worker threads that parse received mail and run the extraction engine on it, for deliveries
    // made on the event loop; 0 parses there too. Defaults: see threadCounts.
    PARSE_THREADS: z.coerce.number().int().min(0).max(64).optional(),
    // Worker threads that deliver received mail (parse, extract, store) over connections of their
    // own to the store; 0 delivers on the event loop. Needs a store that threads share.
    DELIVERY_THREADS: z.coerce.number().int().min(0).max(16).optional(),
    // The most each delivery thread's long-lived heap may hold, in MiB. Default: see the transform.
    DELIVERY_THREAD_HEAP_MB: z.coerce.number().int().min(64).max(65_536).optional(),
    SMTP_MAX_RECIPIENTS: z.coerce.number().int().min(1).max(10_000).default(100),
    SMTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(500),
    SMTP_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).default(50),
    // Sessions from one IPv4 /24 or IPv6 /48. Unset: the SMTP adapter's default, half of SMTP_MAX_CONNECTIONS.
    SMTP_MAX_CONNECTIONS_PER_NETWORK: z.coerce.number().int().min(1).optional(),
    SMTP_GREETING_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    SMTP_TLS_KEY_FILE: z.string().min(1).optional(),
    SMTP_TLS_CERT_FILE: z.string().min(1).optional(),
    SMTP_OUTBOUND_URL: z.string().regex(/^smtps?:\/\//, 'must be smtp://… or smtps://…').optional(),
    MAIL_FROM: z.string().min(3).default('ephemail <no-reply@localhost>'),
    IMAP_MAILBOXES: z
      .string()
      .default('[]')
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be a JSON array of mailboxes' });
          return z.NEVER;
        }
      })
      .pipe(z.array(ImapMailbox)),
    IMAP_POLL_INTERVAL_MS: z.coerce.number().int().min(1000).default(30_000),
    MAIL_AUTH: z.enum(['on', 'off']).optional(),
    DNS_SERVERS: csv.optional(),
    MX_HOST: z.string().regex(/^[a-z0-9.-]+$/i, 'must be a host name').optional(),
    DATA_KEY: z
      .string()
      .regex(/^([0-9a-f]{64}|[A-Za-z0-9+/]{43}=)$/i, 'must be 32 bytes: 64 hex characters or 44 base64 characters')
      .optional(),
    DATA_KEY_FILE: z.string().min(1).optional(),
    WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
    WEBHOOK_BASE_DELAY_MS: z.coerce.number().int().min(1).default(1000),
    WEBHOOK_MAX_DELAY_MS: z.coerce.number().int().min(1).default(1_800_000),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(16),
    WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
    RELIABILITY_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
    // A folder of template files to serve instead of the catalogue shipped with the core package.
    MARKETPLACE_DIR: z.string().min(1).optional(),
    FREE_GRANT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    FREE_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
    // How organizations pay: stripe, the built-in sandbox (takes no money), or off (no billing;
    // plans are assigned with the CLI). Default sandbox in development; required in production.
    PAYMENTS: z.enum(['stripe', 'sandbox', 'off']).optional(),
    // The sandbox in production mode (a staging deployment): an explicit opt-in, never a default.
    PAYMENTS_SANDBOX_IN_PRODUCTION: bool.default(false),
    // In production /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (without it, 404).
    METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    STRIPE_PRICE_STARTER: z.string().min(1).optional(),
    STRIPE_PRICE_GROWTH: z.string().min(1).optional(),
    STRIPE_PRICE_PRO: z.string().min(1).optional(),
    STRIPE_PRICE_ENTERPRISE: z.string().min(1).optional(),
    STRIPE_SUCCESS_URL: z.url().optional(),
    STRIPE_CANCEL_URL: z.url().optional(),
    STRIPE_PORTAL_RETURN_URL: z.url().optional(),
    // Where the Stripe client sends its requests instead of Stripe's API (a proxy, or a stand-in in tests).
    STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, '')).optional(),
    SANDBOX_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    INTERNAL_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
    INTERNAL_HOST: z.string().min(1).default('127.0.0.1'),
    INTERNAL_TLS_CERT: z.string().min(1).optional(),
    INTERNAL_TLS_KEY: z.string().min(1).optional(),
    INTERNAL_TLS_CA: z.string().min(1).optional(),
    INTERNAL_SERVICE_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
    KAFKA_BROKERS: csv.optional(),
    KAFKA_TOPIC: z.string().min(1).default('ephemail.events'),
    KAFKA_CLIENT_ID: z.string().min(1).default('ephemail'),
    KAFKA_IDEMPOTENT: bool.default(true),
    MAX_MESSAGES_PER_IDENTITY: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
    // Bulk exports: where files go (every host must see the same folder), how download links are
    // signed and which host they name, and the limits. Defaults: see exportDir and exports.ts.
    EXPORT_DIR: z.string().min(1).optional(),
    EXPORT_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    EXPORT_HOST: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, '')).optional(),
    EXPORT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(3),
    EXPORT_DOWNLOAD_TTL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(3600),
    EXPORT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    EXPORT_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
    // Export files in an S3-compatible bucket instead of EXPORT_DIR (what several hosts share).
    // Credentials: these two, else the AWS SDK's default chain (AWS_* variables, roles).
    EXPORT_S3_BUCKET: z.string().min(3).max(63).optional(),
    EXPORT_S3_PREFIX: z.string().max(200).default('exports/'),
    EXPORT_S3_REGION: z.string().min(1).default('us-east-1'),
    EXPORT_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    EXPORT_S3_FORCE_PATH_STYLE: bool.default(false),
    EXPORT_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    EXPORT_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
});

/**
 * Where export files go by default: `exports/` beside a SQLite file; for `memory:` (nothing kept)
 * a folder under the OS temp directory; for MongoDB `./data/exports`, which several machines must
 * replace with a shared volume (or set EXPORT_DIR to one).
 */
const exportDir = (databaseUrl: string): string => {
  if (databaseUrl.startsWith('sqlite:') && databaseUrl !== 'sqlite::memory:') return join(dirname(databaseUrl.slice('sqlite:'.length)), 'exports');
  if (MONGODB_URL.test(databaseUrl)) return join('data', 'exports');
  return join(tmpdir(), 'ephemail-exports');
};

/** One delivery thread when the store can be shared and a core is spare; none otherwise. */
const defaultDeliveryThreads = (databaseUrl: string): number => (isSharedStoreUrl(databaseUrl) && availableParallelism() > 1 ? 1 : 0);

export const EnvSchema = EnvShape.transform((env) => ({
  ...env,
  INBOX_DOMAIN: (env.INBOX_DOMAIN ?? DEVELOPMENT_DOMAIN).toLowerCase(),
  // Where custom domains' MX records point: this host's MX name.
  MX_HOST: (env.MX_HOST ?? `mx.${env.INBOX_DOMAIN ?? DEVELOPMENT_DOMAIN}`).toLowerCase().replace(/\.$/, ''),
  // Production without a setting never gets here (paymentIssues); development defaults to the sandbox.
  PAYMENTS: env.PAYMENTS ?? 'sandbox',
  SMTP_HOST: env.SMTP_HOST ?? env.HOST,
  // SPF/DKIM/DMARC need DNS answers from the internet: on by default in production only.
  MAIL_AUTH: env.MAIL_AUTH ?? (env.EPHEMAIL_MODE === 'production' ? 'on' : 'off'),
  ...threadCounts(env),
  // Room for eight messages of the largest size, and never under 256 MiB (see DeliveryThreadsOptions).
  DELIVERY_THREAD_HEAP_MB: env.DELIVERY_THREAD_HEAP_MB ?? Math.max(256, Math.ceil((8 * env.SMTP_MAX_MESSAGE_BYTES) / (1024 * 1024))),
  EXPORT_DIR: env.EXPORT_DIR ?? exportDir(env.DATABASE_URL),
}));

/**
 * With delivery threads, PARSE_THREADS are each delivery thread's own, for large messages: one
 * when a core is spare. Without, they are the host thread's: one per spare core, up to two (the
 * event loop's own work saturates first).
 */
const threadCounts = (env: { DATABASE_URL: string; DELIVERY_THREADS?: number | undefined; PARSE_THREADS?: number | undefined }) => {
  const DELIVERY_THREADS = env.DELIVERY_THREADS ?? defaultDeliveryThreads(env.DATABASE_URL);
  const spare = availableParallelism() - 1;
  const PARSE_THREADS = env.PARSE_THREADS ?? Math.max(0, Math.min(DELIVERY_THREADS > 0 ? 1 : 2, spare));
  return { DELIVERY_THREADS, PARSE_THREADS };
};

export type HostConfig = z.infer<typeof EnvSchema>;

/** A clear, multi-line account of what is wrong with the environment. */
export class ConfigError extends Error {}

/** Validates the environment; throws {@link ConfigError} naming every bad variable. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): HostConfig => {
  const known = Object.fromEntries(Object.keys(EnvShape.shape).map((name) => [name, env[name] === '' ? undefined : env[name]]));
  const parsed = EnvSchema.safeParse(known);
  const lines = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`)),
    ...crossFieldIssues(known),
  ];
  if (parsed.success && lines.length === 0) return parsed.data;
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
};
