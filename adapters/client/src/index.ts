/**
 * `@ephemail/client`: a typed client of the ephemail /v1 API for Node 20+ and browsers. The
 * types are generated from the host's OpenAPI document (`npm run generate -w adapters/client`).
 */
export { createEphemailClient, DEFAULT_LABEL } from './client.js';
export { EphemailError, EphemailIdentityGoneError, EphemailTimeoutError } from './errors.js';
export type {
  CallOptions,
  CreateIdentityBody,
  EphemailClient,
  EphemailClientOptions,
  ErrorEnvelope,
  ExtendIdentityBody,
  Extraction,
  Identity,
  IdentityStatus,
  Message,
  MessageSummary,
  Page,
  WaitedCode,
  WaitedLink,
  WaitOptions,
} from './types.js';
export type { components, paths } from './generated/openapi.js';
