export * from './ports/document-store.js';
export * from './ports/clock.js';
export * from './ports/ids.js';
export * from './metrics/meter.js';
export * from './metrics/catalogue.js';
export { createTally, type SeriesValues, type Tally, type TallySnapshot } from './metrics/tally.js';
export * from './memory/memory-document-store.js';
export * from './memory/system.js';
export * from './domain/errors.js';
export * from './domain/plans.js';
export * from './domain/scopes.js';
export * from './domain/time.js';
export * from './domain/identity.js';
export * from './domain/event.js';
export * from './domain/json-depth.js';
export * from './domain/destination-url.js';
export * from './auth/principal.js';
export * from './auth/secrets.js';
export { type ApiKeyRecord, type ApiKeySummary, type CreateApiKeyInput } from './auth/api-keys.js';
export { ACCESS_TOKEN_TTL, type IssuedAccessToken } from './auth/access-tokens.js';
export * from './schemas.js';
export * from './deps.js';
export { COLLECTIONS } from './store/collections.js';
export { labelKey, labelPrefixRange } from './domain/label-key.js';
export { updateByCompareAndSet } from './store/compare-and-set.js';
export { incremented } from './store/increment-rule.js';
export { EventHub, type EventListener } from './store/event-hub.js';
export { overlay } from './store/overlay.js';
export { type Page } from './use-cases/identities.js';
export { type Lineage, type LineageNode } from './use-cases/lineage.js';
export { type BulkSquashResult } from './use-cases/bulk.js';
export { type MaintenanceReport } from './use-cases/expire-identities.js';
export {
  type IdempotencyClaim,
  type IdempotencyScope,
  type StoredResponse,
  fingerprint,
  MAX_IDEMPOTENCY_KEY_LENGTH,
} from './use-cases/idempotency.js';
export * from './ephemail.js';
export * from './extraction/index.js';
export * from './mail/ports.js';
export { createMailIngress, type MailIngressOptions } from './mail/ingress.js';
export { createMailboxCursorStore } from './mail/cursor-store.js';
export { extractForDelivery, receiveMessage, type ReceiveInput, type ReceiveOutcome } from './mail/receive-message.js';
export {
  REPORT_THRESHOLD,
  type ExtractionRecord,
  type PublicCandidate,
  type PublicExtraction,
  type RevealedExtraction,
} from './mail/extraction-record.js';
export type { NoReveal, RevealOption, Shown } from './auth/reveal.js';
export { digestForStorage, EXTRACTION_BOUNDS, MESSAGE_BOUNDS, withoutSpannedBodies, type MessageRecord } from './mail/message-record.js';
export type { BodySpan, StorageDigest } from './mail/body-span.js';
export { Waiters } from './mail/waiters.js';
export { answerOfType, typesServed, type ExtractionAnswer } from './mail/extraction-pick.js';
export { type LatestExtractionOptions } from './use-cases/latest-extraction.js';
export { toAuthenticationView, type AuthenticationView, type ShownVerdict } from './mail/authentication-view.js';
export { type WaitOptions } from './use-cases/mail-reads.js';
export { relayTick, type RelayOptions, type RelayReport } from './store/event-relay.js';
export * from './webhooks/index.js';
export { sharedRandomPool } from './memory/random-pool.js';
export type { DnsAnswer, DnsRecords, MxRecord } from './domains/ports.js';
export type { DomainOptions } from './domains/facade.js';
export { normalizeHostname } from './domains/hostname.js';
export type { DomainView, DomainSummary, DnsRecordView } from './domains/domain-record.js';
export type { Run, RunStatus, FlowType, RunResult } from './reliability/run-record.js';
export type { RevealedRunSecret, RunSecret } from './reliability/runs.js';
export { RUN_MAIL_RELAY } from './reliability/facade.js';
export { OUTCOMES_RELAY } from './marketplace/facade.js';
export { ListTemplatesQuery, DeployTemplateBody } from './marketplace/schemas.js';
export { TemplateFile, TEMPLATE_CATEGORIES, TEMPLATE_USE_CASES, type TemplateCategory, type TemplateUseCase } from './marketplace/template-file.js';
export { CatalogueError, checkCatalogue, loadCatalogue, DEFAULT_CATALOGUE_DIR } from './marketplace/catalogue.js';
export { PRIOR_WEIGHT, successRateOf, estimatedDurationOf, type TemplateSummary, type TemplateView } from './marketplace/template-record.js';
export type { Deployment, DeploymentStatus } from './marketplace/deployment-record.js';
export { checkPattern, matchBounded, PATTERN_BUDGET_MS } from './extraction/safe-pattern.js';
export { TRIGGER_TIMEOUT_MS, type RunJobOptions, type RunJobReport } from './reliability/run-jobs.js';
export * from './exports/ports.js';
export type { ExportOptions } from './exports/export-deps.js';
export { CreateExportBody, ExportResponse } from './exports/schemas.js';
export { EXPORT_TYPES, EXPORT_FORMATS, type ExportType, type ExportFormat, type ExportStatus, type ExportView, type ExportRecord, type DateRange } from './exports/export-record.js';
export { MAX_EXPORT_DAYS } from './exports/date-range.js';
export { EXPORT_SOURCES, type ExportSource } from './exports/export-sources.js';
export { csvCell, csvCells, guardFormula } from './exports/csv-cells.js';
export { downloadPath, downloadUrl, signDownload, verifyDownload, type PresentedLink } from './exports/download-link.js';
export { MAX_INTERRUPTIONS, type ExportJobReport } from './exports/export-jobs.js';
export type { ExportOutcome, RunOptions as ExportRunOptions } from './exports/run-export.js';
export type { ExportDownload } from './exports/exports.js';
export type { ExportPurgeReport } from './exports/purge-exports.js';
export { createMemoryExportStorage } from './memory/memory-export-storage.js';
export * from './billing/ports.js';
export type { BillingOptions } from './billing/facade.js';
export type { Entitlement, TrialTerms } from './billing/limits-in-force.js';
export { activeTrialPlan, entitledPlan, limitsInForce, planInForce } from './billing/limits-in-force.js';
export type { SubscriptionView } from './billing/billing.js';
export type { Trial, TrialStatus } from './billing/trial-record.js';
export { TRIAL_PLANS, TRIAL_DAYS, TRIAL_GRACE_DAYS } from './billing/trial-record.js';
export { REDIRECT_TOKEN_TTL_MS } from './billing/redirect-tokens.js';
export { hashSecret } from './auth/secrets.js';
export type { FreeExtraction, FreeSettings } from './free/free-identities.js';
export { FREE_GRANT_AUDIENCE } from './free/free-identities.js';
export { GRANT_TTL_MS } from './free/grants.js';
export type { ConsumerOptions } from './consumer/facade.js';
export { ConsumerMessagesQuery, ConsumerMessageQuery } from './consumer/message-schemas.js';
export type { SessionState } from './consumer/session-state.js';
export { SESSION_COOKIE, SESSION_TTL_MS, MAGIC_LINK_TTL_MS, CONSUMER_IDENTITY_LIMITS } from './consumer/consumer-record.js';
