/**
 * The host's configuration rules that span several variables (config.ts validates each one), and
 * the facts about `DATABASE_URL` both need.
 */

export const DEFAULT_DATABASE_URL = 'sqlite:./data/ephemail.db';

/** A MongoDB connection string, as `DATABASE_URL` takes it. */
export const MONGODB_URL = /^mongodb(\+srv)?:\/\//;

/**
 * Whether stores opened from this URL by different threads of one process hold the same data: a
 * SQLite file or MongoDB, not `memory:` or an in-memory SQLite database.
 */
export const isSharedStoreUrl = (databaseUrl: string): boolean =>
  MONGODB_URL.test(databaseUrl) || (databaseUrl.startsWith('sqlite:') && !['', ':memory:'].includes(databaseUrl.slice('sqlite:'.length)));

const STRIPE_SETTINGS = [
  'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_STARTER', 'STRIPE_PRICE_GROWTH', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_ENTERPRISE',
  'STRIPE_SUCCESS_URL', 'STRIPE_CANCEL_URL', 'STRIPE_PORTAL_RETURN_URL',
] as const;

/**
 * A production host must say how it takes payments: with no setting, or with the sandbox (whose
 * "Pay" button takes no money) without the explicit opt-in, it does not start.
 */
const paymentIssues = (raw: Record<string, string | undefined>): string[] => {
  if ((raw.EPHEMAIL_MODE ?? 'development') !== 'production') return [];
  if (raw.PAYMENTS === undefined) {
    return ['  PAYMENTS: required in production mode: stripe (real payments) or off (no billing; assign plans with `ephemail orgs set-plan`); sandbox takes no money and needs PAYMENTS_SANDBOX_IN_PRODUCTION=true'];
  }
  if (raw.PAYMENTS === 'sandbox' && raw.PAYMENTS_SANDBOX_IN_PRODUCTION !== 'true') {
    return ['  PAYMENTS=sandbox: takes no money, so in production mode it needs PAYMENTS_SANDBOX_IN_PRODUCTION=true (a staging deployment); use PAYMENTS=stripe or PAYMENTS=off'];
  }
  return [];
};

/** Rules across variables, checked on the raw values so they are reported with any type errors. */
export const crossFieldIssues = (raw: Record<string, string | undefined>): string[] => [
  ...((raw.EPHEMAIL_MODE ?? 'development') === 'production' && raw.INBOX_DOMAIN === undefined
    ? ['  INBOX_DOMAIN: required in production mode']
    : []),
  ...((raw.EPHEMAIL_MODE ?? 'development') === 'production' && raw.DATA_KEY === undefined && raw.DATA_KEY_FILE === undefined
    ? ['  DATA_KEY or DATA_KEY_FILE: required in production mode (it seals webhook secrets at rest)']
    : []),
  ...paymentIssues(raw),
  ...(raw.PAYMENTS === 'stripe'
    ? STRIPE_SETTINGS.filter((name) => raw[name] === undefined).map((name) => `  ${name}: required with PAYMENTS=stripe`)
    : []),
  ...(raw.INTERNAL_PORT !== undefined
    ? ['INTERNAL_TLS_CERT', 'INTERNAL_TLS_KEY', 'INTERNAL_TLS_CA', 'INTERNAL_SERVICE_TOKEN']
        .filter((name) => raw[name] === undefined)
        .map((name) => `  ${name}: required with INTERNAL_PORT (the internal listener takes mutual TLS and a service credential)`)
    : []),
  ...(Number(raw.WEBHOOK_MAX_DELAY_MS ?? 1_800_000) < Number(raw.WEBHOOK_BASE_DELAY_MS ?? 1000)
    ? ['  WEBHOOK_MAX_DELAY_MS: must be at least WEBHOOK_BASE_DELAY_MS']
    : []),
  ...((raw.SMTP_TLS_KEY_FILE === undefined) !== (raw.SMTP_TLS_CERT_FILE === undefined)
    ? ['  SMTP_TLS_KEY_FILE, SMTP_TLS_CERT_FILE: give both or neither']
    : []),
  ...(Number(raw.DELIVERY_THREADS ?? 0) > 0 && !isSharedStoreUrl(raw.DATABASE_URL ?? DEFAULT_DATABASE_URL)
    ? ['  DELIVERY_THREADS: needs a store that threads share (a SQLite file or MongoDB), not memory']
    : []),
];
