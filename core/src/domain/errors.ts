import type { SecretType } from '../extraction/types.js';

/**
 * Every expected failure of a use case, as a tagged plain object. Each edge maps these in one
 * exhaustive switch (HTTP envelope in http-express, reply codes in mail-smtp); core never knows
 * a status code.
 */
export type DomainError =
  | { readonly _tag: 'InvalidRequest'; readonly message: string; readonly issues: readonly Issue[] }
  | { readonly _tag: 'Unauthorized'; readonly message: string }
  | { readonly _tag: 'Forbidden'; readonly message: string; readonly missingScopes: readonly string[] }
  | { readonly _tag: 'ScopeMismatch'; readonly message: string }
  | { readonly _tag: 'IdentityNotFound'; readonly id: string }
  | { readonly _tag: 'IdentityAlreadySquashed'; readonly id: string }
  | { readonly _tag: 'IdentityExpired'; readonly id: string }
  | { readonly _tag: 'QuotaExceeded'; readonly resource: string; readonly limit: number; readonly requested: number }
  | { readonly _tag: 'BatchTooLarge'; readonly max: number; readonly requested: number }
  | { readonly _tag: 'LineageDepthExceeded'; readonly max: number }
  | { readonly _tag: 'DomainNotFound'; readonly domain: string }
  | { readonly _tag: 'RunNotFound'; readonly id: string }
  | { readonly _tag: 'TemplateNotFound'; readonly id: string }
  | { readonly _tag: 'TemplateDeprecated'; readonly id: string; readonly since: string; readonly reason: string; readonly replacedBy: string | null }
  | { readonly _tag: 'InvalidParameters'; readonly issues: readonly Issue[] }
  | { readonly _tag: 'EmailAlreadyRegistered' }
  | { readonly _tag: 'ConsumerNotFound' }
  | { readonly _tag: 'InvalidMagicLink' }
  | { readonly _tag: 'SessionExpired' }
  | { readonly _tag: 'IdentityLimitReached'; readonly limit: number }
  | { readonly _tag: 'AlreadyUpgraded' }
  | { readonly _tag: 'GrantExpired' }
  | { readonly _tag: 'GrantReplayed' }
  | { readonly _tag: 'InvalidToken' }
  | { readonly _tag: 'IpLimitReached' }
  | { readonly _tag: 'RateLimited'; readonly retryAfterSeconds: number }
  | { readonly _tag: 'FreeIdentityExpired'; readonly id: string }
  | { readonly _tag: 'NoActiveSubscription' }
  | { readonly _tag: 'BillingNotConfigured' }
  | { readonly _tag: 'InvalidPlan'; readonly plan: string; readonly allowed: readonly string[] }
  | { readonly _tag: 'ProviderFailed'; readonly operation: 'checkout' | 'portal'; readonly message: string; readonly retryable: boolean }
  | { readonly _tag: 'TokenInvalid' }
  | { readonly _tag: 'TokenReplayed' }
  | { readonly _tag: 'TokenExpired' }
  | { readonly _tag: 'InvoiceNotFound'; readonly id: string }
  | { readonly _tag: 'TrialNotFound'; readonly id: string }
  | { readonly _tag: 'TrialAlreadyExists' }
  | { readonly _tag: 'TrialExpired'; readonly id: string }
  | { readonly _tag: 'TrialAlreadyConverted'; readonly id: string }
  | { readonly _tag: 'TrialCanceled'; readonly id: string }
  | { readonly _tag: 'SecretNotAvailable'; readonly runId: string; readonly reason: string }
  | { readonly _tag: 'DomainNotVerified'; readonly domain: string }
  /** `under`: the name is free, but lies under `under`, which another organization has verified. */
  | { readonly _tag: 'DomainAlreadyRegistered'; readonly domain: string; readonly under?: string }
  | { readonly _tag: 'DomainQuotaExceeded'; readonly limit: number }
  | { readonly _tag: 'DnsVerificationFailed'; readonly domain: string; readonly records: readonly DnsCheck[] }
  | { readonly _tag: 'DependencyTimeout'; readonly dependency: string; readonly message: string }
  | { readonly _tag: 'DependencyUnavailable'; readonly dependency: string; readonly message: string }
  | { readonly _tag: 'EventNotFound'; readonly id: string; readonly newerThan?: NewerThan }
  | { readonly _tag: 'WebhookNotFound'; readonly id: string }
  | { readonly _tag: 'ExtractionNotFound'; readonly identityId: string; readonly newerThan?: NewerThan; readonly type?: SecretType }
  | { readonly _tag: 'IdempotencyKeyReused' }
  | { readonly _tag: 'IdempotencyInProgress' }
  | { readonly _tag: 'NotFound'; readonly resource: string; readonly id: string }
  | { readonly _tag: 'ExportNotFound'; readonly id: string }
  | { readonly _tag: 'InvalidExportType'; readonly type: string; readonly allowed: readonly string[] }
  | { readonly _tag: 'InvalidFormat'; readonly format: string; readonly allowed: readonly string[] }
  | { readonly _tag: 'DateRangeTooLarge'; readonly days: number; readonly maxDays: number }
  | { readonly _tag: 'ExportQuotaExceeded'; readonly limit: number }
  | { readonly _tag: 'DownloadSignatureInvalid' }
  | { readonly _tag: 'DownloadExpired'; readonly expiredAt: string };

/** What a DNS check of one required record found (`found`: the values seen at its host). */
export interface DnsCheck {
  readonly type: 'MX' | 'TXT';
  readonly host: string;
  readonly expected: string;
  readonly status: 'verified' | 'missing';
  readonly found: readonly string[];
}

/** One problem with a request field: `path` is dotted (`identities.2.label`). */
export interface Issue {
  readonly path: string;
  readonly message: string;
}

export type DomainErrorTag = DomainError['_tag'];

export const invalidRequest = (message: string, issues: readonly Issue[] = []): DomainError => ({
  _tag: 'InvalidRequest',
  message,
  issues,
});
export const unauthorized = (message = 'Missing or invalid credential.'): DomainError => ({
  _tag: 'Unauthorized',
  message,
});
export const forbidden = (missingScopes: readonly string[], message?: string): DomainError => ({
  _tag: 'Forbidden',
  message: message ?? `The credential lacks the scope ${missingScopes.join(', ')}.`,
  missingScopes,
});
export const scopeMismatch = (message: string): DomainError => ({ _tag: 'ScopeMismatch', message });
export const identityNotFound = (id: string): DomainError => ({ _tag: 'IdentityNotFound', id });
export const identityAlreadySquashed = (id: string): DomainError => ({ _tag: 'IdentityAlreadySquashed', id });
export const identityExpired = (id: string): DomainError => ({ _tag: 'IdentityExpired', id });
export const quotaExceeded = (resource: string, limit: number, requested: number): DomainError => ({
  _tag: 'QuotaExceeded',
  resource,
  limit,
  requested,
});
export const batchTooLarge = (max: number, requested: number): DomainError => ({
  _tag: 'BatchTooLarge',
  max,
  requested,
});
export const lineageDepthExceeded = (max: number): DomainError => ({ _tag: 'LineageDepthExceeded', max });
export const domainNotFound = (domain: string): DomainError => ({ _tag: 'DomainNotFound', domain });
/** A long-poll that timed out while the identity had a result already: the one named `after`. */
export interface NewerThan {
  readonly after: string;
  readonly waitSeconds: number;
}

export const noActiveSubscription = (): DomainError => ({ _tag: 'NoActiveSubscription' });
export const billingNotConfigured = (): DomainError => ({ _tag: 'BillingNotConfigured' });
export const invalidPlan = (plan: string, allowed: readonly string[]): DomainError => ({ _tag: 'InvalidPlan', plan, allowed });
export const providerFailed = (operation: 'checkout' | 'portal', message: string, retryable: boolean): DomainError => ({ _tag: 'ProviderFailed', operation, message, retryable });
export const tokenInvalid = (): DomainError => ({ _tag: 'TokenInvalid' });
export const tokenReplayed = (): DomainError => ({ _tag: 'TokenReplayed' });
export const tokenExpired = (): DomainError => ({ _tag: 'TokenExpired' });
export const invoiceNotFound = (id: string): DomainError => ({ _tag: 'InvoiceNotFound', id });
export const trialNotFound = (id: string): DomainError => ({ _tag: 'TrialNotFound', id });
export const trialAlreadyExists = (): DomainError => ({ _tag: 'TrialAlreadyExists' });
export const trialExpired = (id: string): DomainError => ({ _tag: 'TrialExpired', id });
export const trialAlreadyConverted = (id: string): DomainError => ({ _tag: 'TrialAlreadyConverted', id });
export const trialCanceled = (id: string): DomainError => ({ _tag: 'TrialCanceled', id });
export const emailAlreadyRegistered = (): DomainError => ({ _tag: 'EmailAlreadyRegistered' });
export const consumerNotFound = (): DomainError => ({ _tag: 'ConsumerNotFound' });
export const invalidMagicLink = (): DomainError => ({ _tag: 'InvalidMagicLink' });
export const sessionExpired = (): DomainError => ({ _tag: 'SessionExpired' });
export const identityLimitReached = (limit: number): DomainError => ({ _tag: 'IdentityLimitReached', limit });
export const alreadyUpgraded = (): DomainError => ({ _tag: 'AlreadyUpgraded' });
export const grantExpired = (): DomainError => ({ _tag: 'GrantExpired' });
export const grantReplayed = (): DomainError => ({ _tag: 'GrantReplayed' });
export const invalidToken = (): DomainError => ({ _tag: 'InvalidToken' });
export const ipLimitReached = (): DomainError => ({ _tag: 'IpLimitReached' });
export const rateLimited = (retryAfterSeconds: number): DomainError => ({ _tag: 'RateLimited', retryAfterSeconds });
export const freeIdentityExpired = (id: string): DomainError => ({ _tag: 'FreeIdentityExpired', id });
export const runNotFound = (id: string): DomainError => ({ _tag: 'RunNotFound', id });
export const templateNotFound = (id: string): DomainError => ({ _tag: 'TemplateNotFound', id });
export const templateDeprecated = (id: string, since: string, reason: string, replacedBy: string | null): DomainError => ({ _tag: 'TemplateDeprecated', id, since, reason, replacedBy });
export const invalidParameters = (issues: readonly Issue[]): DomainError => ({ _tag: 'InvalidParameters', issues });
export const secretNotAvailable = (runId: string, reason: string): DomainError => ({ _tag: 'SecretNotAvailable', runId, reason });
export const domainNotVerified = (domain: string): DomainError => ({ _tag: 'DomainNotVerified', domain });
export const domainAlreadyRegistered = (domain: string, under?: string): DomainError =>
  under === undefined ? { _tag: 'DomainAlreadyRegistered', domain } : { _tag: 'DomainAlreadyRegistered', domain, under };
export const domainQuotaExceeded = (limit: number): DomainError => ({ _tag: 'DomainQuotaExceeded', limit });
export const dnsVerificationFailed = (domain: string, records: readonly DnsCheck[]): DomainError => ({ _tag: 'DnsVerificationFailed', domain, records });
export const dependencyTimeout = (dependency: string, message: string): DomainError => ({ _tag: 'DependencyTimeout', dependency, message });
export const dependencyUnavailable = (dependency: string, message: string): DomainError => ({ _tag: 'DependencyUnavailable', dependency, message });

export const eventNotFound = (id: string, newerThan?: NewerThan): DomainError =>
  newerThan === undefined ? { _tag: 'EventNotFound', id } : { _tag: 'EventNotFound', id, newerThan };
export const webhookNotFound = (id: string): DomainError => ({ _tag: 'WebhookNotFound', id });
export const extractionNotFound = (identityId: string, newerThan?: NewerThan, type?: SecretType): DomainError => ({
  _tag: 'ExtractionNotFound',
  identityId,
  ...(newerThan === undefined ? {} : { newerThan }),
  ...(type === undefined ? {} : { type }),
});
export const idempotencyKeyReused = (): DomainError => ({ _tag: 'IdempotencyKeyReused' });
export const idempotencyInProgress = (): DomainError => ({ _tag: 'IdempotencyInProgress' });
export const notFound = (resource: string, id: string): DomainError => ({ _tag: 'NotFound', resource, id });
export const exportNotFound = (id: string): DomainError => ({ _tag: 'ExportNotFound', id });
export const invalidExportType = (type: string, allowed: readonly string[]): DomainError => ({ _tag: 'InvalidExportType', type, allowed });
export const invalidFormat = (format: string, allowed: readonly string[]): DomainError => ({ _tag: 'InvalidFormat', format, allowed });
export const dateRangeTooLarge = (days: number, maxDays: number): DomainError => ({ _tag: 'DateRangeTooLarge', days, maxDays });
export const exportQuotaExceeded = (limit: number): DomainError => ({ _tag: 'ExportQuotaExceeded', limit });
export const downloadSignatureInvalid = (): DomainError => ({ _tag: 'DownloadSignatureInvalid' });
export const downloadExpired = (expiredAt: string): DomainError => ({ _tag: 'DownloadExpired', expiredAt });
