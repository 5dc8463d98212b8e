import { EphemailError, EphemailIdentityGoneError, EphemailTimeoutError } from '@ephemail/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What a model should do next after each API error code it is likely to meet. */
const ADVICE: Record<string, string> = {
  unauthorized: 'The API key was refused (unknown, revoked or mistyped): fix EPHEMAIL_API_KEY in the MCP server configuration. Retrying will not help.',
  scope_mismatch: 'EPHEMAIL_ORG_ID or EPHEMAIL_PROJECT_ID does not match the API key: fix the MCP server configuration. Retrying will not help.',
  forbidden: 'The API key lacks a scope this needs (see missing_scopes); ask for a key with that scope. Retrying will not help.',
  identity_not_found: 'No inbox with this id exists in this project. Call list_inboxes to find the right id, or create_inbox for a new one.',
  identity_already_squashed: 'The inbox was deleted: it receives no more mail and cannot be used again. Call create_inbox for a new one.',
  identity_expired: 'The inbox has expired: it receives no more mail and cannot be used again. Call create_inbox for a new one (with a larger ttl_hours if needed).',
  quota_exceeded: 'The plan allows no more live inboxes. Delete inboxes you no longer need with delete_inbox, then try again.',
  invalid_request: 'An argument was refused (see issues). Correct it and call again.',
  message_not_found: 'The message is gone or belongs to another inbox. Call read_latest_message again.',
  domain_not_found: 'That domain is not available to this project. Leave domain out to use the default inbox domain.',
  domain_not_verified: 'That domain is not verified yet. Leave domain out to use the default inbox domain.',
  idempotency_in_progress: 'The same request is still being processed. Wait a second and call again.',
  dependency_unavailable: 'The ephemail service is temporarily unavailable. Wait a second and call again.',
  rate_limited: 'Too many requests. Wait a minute and call again.',
};

const DEFAULT_ADVICE = 'Check the arguments and the MCP server configuration, then call again.';

/** The text of an error result, and its code for tests and logs. */
export interface ToolFailure {
  readonly code: string;
  readonly text: string;
}

const detailsSuffix = (details: unknown): string => {
  if (typeof details !== 'object' || details === null) return '';
  const { issues, missing_scopes: missing } = details as { issues?: unknown; missing_scopes?: unknown };
  const parts: string[] = [];
  if (Array.isArray(issues) && issues.length > 0) {
    const listed = issues.map((i: { path?: unknown; message?: unknown }) => `${String(i.path)}: ${String(i.message)}`);
    parts.push(`issues: ${listed.join('; ')}`);
  }
  if (Array.isArray(missing) && missing.length > 0) parts.push(`missing_scopes: ${missing.join(', ')}`);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
};

/** What a timed-out wait found in the inbox, so the advice fits: no mail at all, or mail without the secret. */
export interface InboxSeen {
  readonly email: string;
  readonly messages: number;
  readonly latest?: { readonly from: string; readonly subject: string; readonly receivedAt: string };
}

/** A wait on an inbox that was deleted or expired (before or during it): no secret can come, so waiting again is pointless. */
const fromGone = (error: EphemailIdentityGoneError, waitingFor: string): ToolFailure => {
  const inbox = error.identityId === undefined ? 'the inbox' : `inbox ${error.identityId}`;
  const why = error.state === 'squashed' ? 'was deleted' : 'has expired';
  const request = error.requestId === undefined ? '' : ` [request ${error.requestId}]`;
  return {
    code: error.code,
    text:
      `ephemail error ${error.code} (HTTP ${error.status}): ${inbox} ${why}, so no ${waitingFor} can arrive in it any more. ` +
      'Do not wait on it again: call create_inbox for a new inbox and give its address to the site. What it received before ' +
      `can still be read with read_latest_message.${request}`,
  };
};

const fromApiError = (error: EphemailError): ToolFailure => {
  const advice = ADVICE[error.code] ?? DEFAULT_ADVICE;
  const request = error.requestId === undefined ? '' : ` [request ${error.requestId}]`;
  return {
    code: error.code,
    text: `ephemail error ${error.code} (HTTP ${error.status}): ${error.message.replace(/\.$/, '')}${detailsSuffix(error.details)}. ${advice}${request}`,
  };
};

const SEEN_NOTHING =
  'Check that the email was really sent to this inbox address (and not blocked by the sender), then call again to keep waiting, ' +
  'or read_latest_message to see whether a message arrived without one.';

/** The next step after a timeout, from what the inbox holds (unknown when it could not be read). */
const adviceAfterTimeout = (waitingFor: string, seen: InboxSeen | undefined): string => {
  if (seen === undefined) return SEEN_NOTHING;
  if (seen.messages === 0) {
    return (
      `No email at all has reached it. Check that the site was given exactly ${seen.email} and really sent the email ` +
      '(some send only after a further step, or refuse disposable addresses), then call again to keep waiting.'
    );
  }
  const latest = seen.latest === undefined ? '' : `, the latest from ${seen.latest.from} ("${seen.latest.subject}", ${seen.latest.receivedAt})`;
  return (
    `It holds ${seen.messages} message${seen.messages === 1 ? '' : 's'}${latest}, but the service found no ${waitingFor} it is sure of in them ` +
    `(newer than after_extraction_id, if given). Call read_latest_message to read the latest yourself, or call again to keep waiting for another email.`
  );
};

const fromTimeout = (error: EphemailTimeoutError, waitingFor: string, seen: InboxSeen | undefined): ToolFailure => {
  // The client keeps reconnecting through outages until the deadline; say so if that is why.
  const cause = error.cause instanceof Error ? ` The last attempt to ask the API failed (${error.cause.message}).` : '';
  return {
    code: 'wait_timeout',
    text: `wait_timeout: no ${waitingFor} arrived in inbox ${error.identityId} within ${Math.round(error.waitedMs / 1000)} s.${cause} ${adviceAfterTimeout(waitingFor, seen)}`,
  };
};

/** The text with every occurrence of `secret` gone, including any a replacement could form anew. */
const scrub = (text: string, secret: string): string => {
  let out = text.split(secret).join('[redacted]');
  // Each pass shortens the text, so this ends.
  while (out.includes(secret)) out = out.split(secret).join('');
  return out;
};

/** Whether an error is the fetch layer failing to reach the API at all (refused, DNS, reset). */
const isNetworkFailure = (error: Error): boolean => error.name === 'TypeError' && /fetch failed/i.test(error.message);

/**
 * Maps anything a tool handler threw to a failure a model can act on: the API's error code and
 * what to do next. Never a stack trace, and never the API key, whatever the message held.
 */
export const describeFailure = (error: unknown, context: { apiKey: string; url: string; waitingFor?: string; seen?: InboxSeen }): ToolFailure => {
  const failure = ((): ToolFailure => {
    if (error instanceof EphemailIdentityGoneError && context.waitingFor !== undefined) return fromGone(error, context.waitingFor);
    if (error instanceof EphemailError) return fromApiError(error);
    if (error instanceof EphemailTimeoutError) return fromTimeout(error, context.waitingFor ?? 'result', context.seen);
    if (error instanceof Error && error.name === 'AbortError') {
      return { code: 'cancelled', text: 'cancelled: the call was cancelled before it finished.' };
    }
    if (error instanceof Error && isNetworkFailure(error)) {
      const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
      return {
        code: 'api_unreachable',
        text: `api_unreachable: could not reach the ephemail API at ${context.url}${cause}. Check that the service is running and that EPHEMAIL_URL is right, then call again.`,
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { code: 'internal_error', text: `internal_error: ${message}. This is unexpected; try again, and report it if it persists.` };
  })();
  return { code: failure.code, text: scrub(failure.text, context.apiKey) };
};

/** A tool result marked `isError`, whose text names the error code and the next step. */
export const failureResult = (failure: ToolFailure): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: failure.text }],
});
