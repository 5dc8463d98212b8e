import type { DomainError, NewerThan } from '@ephemail/core';

/** An error as the API answers it: status, code, message, extra details, and whether to retry. */
export interface HttpError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly retryable?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A long-poll that timed out although the identity has a result: the one the caller holds. */
const nothingNewer = (what: string, { after, waitSeconds }: NewerThan): string =>
  waitSeconds > 0
    ? `No ${what} newer than ${after} arrived within ${waitSeconds} s; the latest is still ${after}.`
    : `No ${what} newer than ${after}; the latest is still ${after}.`;

const assertNever = (value: never): never => {
  throw new Error(`unmapped domain error: ${JSON.stringify(value)}`);
};

/** The one place where domain errors become HTTP answers. Exhaustive: a new tag fails to compile. */
export const toHttpError = (error: DomainError): HttpError => {
  switch (error._tag) {
    case 'InvalidRequest':
      return { status: 400, code: 'invalid_request', message: error.message, details: { issues: error.issues } };
    case 'Unauthorized':
      return { status: 401, code: 'unauthorized', message: error.message };
    case 'Forbidden':
      return { status: 403, code: 'forbidden', message: error.message, details: { missing_scopes: error.missingScopes } };
    case 'ScopeMismatch':
      return { status: 403, code: 'scope_mismatch', message: error.message };
    case 'IdentityNotFound':
      return { status: 404, code: 'identity_not_found', message: 'No such identity.' };
    case 'IdentityAlreadySquashed':
      return { status: 409, code: 'identity_already_squashed', message: 'The identity is squashed; it receives no more mail.', details: { identity_id: error.id } };
    case 'IdentityExpired':
      return { status: 409, code: 'identity_expired', message: 'The identity has expired; it receives no more mail.', details: { identity_id: error.id } };
    case 'QuotaExceeded':
      return {
        status: 403,
        code: 'quota_exceeded',
        message: `The plan allows ${error.limit} live ${error.resource}.`,
        details: { resource: error.resource, limit: error.limit, requested: error.requested },
      };
    case 'BatchTooLarge':
      return {
        status: 400,
        code: 'batch_too_large',
        message: `The plan allows at most ${error.max} identities per batch.`,
        details: { max: error.max, requested: error.requested },
      };
    case 'LineageDepthExceeded':
      return { status: 409, code: 'lineage_depth_exceeded', message: `Lineage is limited to depth ${error.max}.`, details: { max: error.max } };
    case 'DomainNotFound':
      return { status: 404, code: 'domain_not_found', message: `The domain ${error.domain} is not available to this project.` };
    case 'NoActiveSubscription':
      return { status: 404, code: 'no_active_subscription', message: 'The organization has no active subscription.' };
    case 'BillingNotConfigured':
      return {
        status: 501,
        code: 'billing_not_configured',
        message: 'Billing is not configured on this service (PAYMENTS=off): plans are assigned by its operator.',
        retryable: false,
      };
    case 'InvalidPlan':
      return { status: 400, code: 'invalid_plan', message: `"${error.plan}" is not a plan here: one of ${error.allowed.join(', ')}.`, details: { allowed: error.allowed } };
    case 'ProviderFailed':
      return { status: 502, code: `${error.operation}_failed`, message: error.message, retryable: error.retryable };
    case 'TokenInvalid':
      return { status: 403, code: 'token_invalid', message: 'The token is not valid.' };
    case 'TokenReplayed':
      return { status: 409, code: 'token_replayed', message: 'The token was redeemed already.' };
    case 'TokenExpired':
      return { status: 410, code: 'token_expired', message: 'The token has expired.' };
    case 'InvoiceNotFound':
      return { status: 404, code: 'invoice_not_found', message: 'No such invoice.' };
    case 'TrialNotFound':
      return { status: 404, code: 'trial_not_found', message: 'No such trial.' };
    case 'TrialAlreadyExists':
      return { status: 409, code: 'trial_already_exists', message: 'The organization has used its trial already.' };
    case 'TrialExpired':
      return { status: 410, code: 'trial_expired', message: 'The trial ended and its grace period is over.' };
    case 'TrialAlreadyConverted':
      return { status: 409, code: 'trial_already_converted', message: 'The trial was converted already.' };
    case 'TrialCanceled':
      return { status: 409, code: 'trial_canceled', message: 'The trial was canceled.' };
    case 'EmailAlreadyRegistered':
      return { status: 409, code: 'email_already_registered', message: 'An account with this address exists; sign in instead.' };
    case 'ConsumerNotFound':
      return { status: 404, code: 'consumer_not_found', message: 'No account has this address; sign up instead.' };
    case 'InvalidMagicLink':
      return { status: 401, code: 'invalid_magic_link', message: 'The sign-in link is not valid: it was used, has expired, or was never sent.' };
    case 'SessionExpired':
      return { status: 401, code: 'session_expired', message: 'The session has ended; sign in again.' };
    case 'IdentityLimitReached':
      return { status: 403, code: 'identity_limit_reached', message: `The account may hold ${error.limit} active identities.`, details: { limit: error.limit } };
    case 'AlreadyUpgraded':
      return { status: 409, code: 'already_upgraded', message: 'The account is upgraded already.' };
    case 'GrantExpired':
      return { status: 403, code: 'grant_expired', message: 'The anonymous grant has expired; ask for a new one.' };
    case 'GrantReplayed':
      return { status: 409, code: 'grant_replayed', message: 'The anonymous grant was used already.' };
    case 'InvalidToken':
      return { status: 401, code: 'invalid_token', message: 'The token is missing or wrong.' };
    case 'IpLimitReached':
      return { status: 429, code: 'ip_limit_reached', message: 'This address already holds an active free identity.' };
    case 'RateLimited':
      return {
        status: 429,
        code: 'rate_limited',
        message: `Too many requests; try again in ${error.retryAfterSeconds} s.`,
        retryable: true,
        headers: { 'Retry-After': String(error.retryAfterSeconds) },
      };
    case 'FreeIdentityExpired':
      return { status: 410, code: 'identity_expired', message: 'The free identity has expired.' };
    case 'TemplateNotFound':
      return { status: 404, code: 'template_not_found', message: 'No such template.' };
    case 'TemplateDeprecated':
      return {
        status: 410,
        code: 'template_deprecated',
        message: `This template version is deprecated since ${error.since}: ${error.reason}${error.replacedBy === null ? '' : ` Deploy ${error.replacedBy} instead.`}`,
        details: { template_id: error.id, deprecated_since: error.since, replaced_by: error.replacedBy },
      };
    case 'InvalidParameters':
      return { status: 400, code: 'invalid_parameters', message: `The template's parameters are invalid: ${error.issues.map((i) => `${i.path.replace(/^body\.parameters\./, '')} ${i.message}`).join('; ')}.`, details: { issues: error.issues } };
    case 'RunNotFound':
      return { status: 404, code: 'run_not_found', message: 'No such reliability run.' };
    case 'SecretNotAvailable':
      return { status: 404, code: 'secret_not_available', message: error.reason };
    case 'DomainNotVerified':
      return {
        status: 400,
        code: 'domain_not_verified',
        message: `The domain ${error.domain} is not verified yet: publish its DNS records and call POST /v1/domains/{id}/verify.`,
      };
    case 'DomainAlreadyRegistered':
      return error.under === undefined
        ? { status: 409, code: 'domain_already_registered', message: `The domain ${error.domain} is registered already.` }
        : {
            status: 409,
            code: 'domain_already_registered',
            message: `The domain ${error.domain} lies under ${error.under}, which another organization has verified.`,
            details: { under: error.under },
          };
    case 'DomainQuotaExceeded':
      return {
        status: 403,
        code: 'domain_quota_exceeded',
        message: `The plan allows at most ${error.limit} custom domains.`,
        details: { resource: 'domains', limit: error.limit },
      };
    case 'DnsVerificationFailed':
      return {
        status: 422,
        code: 'dns_verification_failed',
        message: `DNS does not hold the ${error.records.filter((r) => r.status !== 'verified').map((r) => `${r.type} record at ${r.host}`).join(' and ')} yet.`,
        details: { domain: error.domain, records: error.records },
      };
    case 'DependencyTimeout':
      return { status: 503, code: 'dependency_timeout', message: error.message, retryable: true, headers: { 'Retry-After': '5' }, details: { dependency: error.dependency } };
    case 'DependencyUnavailable':
      return { status: 503, code: 'dependency_unavailable', message: error.message, retryable: true, headers: { 'Retry-After': '5' }, details: { dependency: error.dependency } };
    case 'EventNotFound':
      return { status: 404, code: 'event_not_found', message: error.newerThan === undefined ? 'No such event.' : nothingNewer('event', error.newerThan) };
    case 'WebhookNotFound':
      return { status: 404, code: 'webhook_not_found', message: 'No such webhook endpoint.' };
    case 'ExtractionNotFound':
      return {
        status: 404,
        code: 'extraction_not_found',
        message: error.newerThan === undefined ? `No ${error.type === undefined ? '' : `${error.type} `}extraction for this identity yet.` : nothingNewer('extraction', error.newerThan),
      };
    case 'IdempotencyKeyReused':
      return { status: 422, code: 'idempotency_key_reused', message: 'The Idempotency-Key was used with a different request body.' };
    case 'IdempotencyInProgress':
      return {
        status: 409,
        code: 'idempotency_in_progress',
        message: 'A request with this Idempotency-Key is still in progress.',
        retryable: true,
        headers: { 'Retry-After': '1' },
      };
    case 'NotFound':
      return { status: 404, code: `${error.resource}_not_found`, message: `No such ${error.resource}.` };
    case 'ExportNotFound':
      return { status: 404, code: 'export_not_found', message: 'No such export.' };
    case 'InvalidExportType':
      return { status: 400, code: 'invalid_export_type', message: `"${error.type}" is not an export type: one of ${error.allowed.join(', ')}.`, details: { allowed: error.allowed } };
    case 'InvalidFormat':
      return { status: 400, code: 'invalid_format', message: `"${error.format}" is not an export format: one of ${error.allowed.join(', ')}.`, details: { allowed: error.allowed } };
    case 'DateRangeTooLarge':
      return {
        status: 400,
        code: 'date_range_too_large',
        message: `The date range spans ${error.days} days; an export covers at most ${error.maxDays}.`,
        details: { days: error.days, max_days: error.maxDays },
      };
    case 'ExportQuotaExceeded':
      return {
        status: 429,
        code: 'export_quota_exceeded',
        message: `The organization runs ${error.limit} exports already; wait until one is ready or failed.`,
        retryable: true,
        headers: { 'Retry-After': '5' },
        details: { limit: error.limit },
      };
    case 'DownloadSignatureInvalid':
      return { status: 403, code: 'invalid_download_signature', message: 'The download link is not valid: its signature does not match.' };
    case 'DownloadExpired':
      return { status: 410, code: 'download_expired', message: `The download link expired at ${error.expiredAt}; create a new export.`, details: { expired_at: error.expiredAt } };
    default:
      return assertNever(error);
  }
};

/** A failure of infrastructure (the store, a driver): retryable, with no detail leaked. */
export const dependencyUnavailable: HttpError = {
  status: 503,
  code: 'dependency_unavailable',
  message: 'A dependency of the service is unavailable; retry shortly.',
  retryable: true,
  headers: { 'Retry-After': '1' },
};
