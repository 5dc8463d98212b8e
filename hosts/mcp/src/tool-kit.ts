import { EphemailError, type EphemailClient, type Identity } from '@ephemail/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeFailure, failureResult, type InboxSeen } from './errors.js';

/** What every tool needs: the API client, and what to keep out of (and put into) error texts. */
export interface ToolDeps {
  readonly client: EphemailClient;
  /** Scrubbed from every error text, should an error ever carry it. */
  readonly apiKey: string;
  /** Named when the API cannot be reached. */
  readonly url: string;
}

/** A successful result: the structured value the output schema declares, and a one-line summary. */
export const success = (text: string, structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
});

/**
 * Runs a tool body, turning anything it throws into an `isError` result that names the error code
 * and the next step; `waitingFor` words a timeout ("code", "link"), and `look` tells what the
 * inbox holds after one, so the next step fits.
 */
export const guarded = async (
  deps: ToolDeps,
  run: () => Promise<CallToolResult>,
  waitingFor?: string,
  look?: (error: unknown) => Promise<InboxSeen | undefined>,
): Promise<CallToolResult> => {
  try {
    return await run();
  } catch (error) {
    const seen = look === undefined ? undefined : await look(error).catch(() => undefined);
    return failureResult(describeFailure(error, { apiKey: deps.apiKey, url: deps.url, waitingFor, seen }));
  }
};

/** The `inbox_id` argument every per-inbox tool takes. */
export const inboxIdInput = z
  .string()
  .regex(/^ident_[A-Za-z0-9_-]+$/, 'must be an inbox id such as ident_…, as create_inbox or list_inboxes returned it (not the email address)')
  .describe('The inbox id (starts with "ident_") that create_inbox or list_inboxes returned. Not the email address.');

const STATUSES = ['provisioned', 'active', 'extended', 'squashed', 'expired'] as const;

/** An inbox as the tools return it. */
export const InboxOutput = z.object({
  id: z.string().describe('Inbox id (ident_…); pass it as inbox_id to the other tools.'),
  email: z.string().describe('The inbox address; give it to the site or app that should send mail.'),
  label: z.string().describe('Your name for the inbox.'),
  status: z
    .enum(STATUSES)
    .describe('provisioned (no mail yet), active (has mail), extended (lifetime extended); squashed (deleted) and expired accept no mail.'),
  created_at: z.string().describe('Creation time, ISO 8601 UTC.'),
  expires_at: z.string().describe('When the inbox stops accepting mail, ISO 8601 UTC.'),
});

/** An API identity as the tools' inbox output. */
export const inboxView = (identity: Identity): z.infer<typeof InboxOutput> => ({
  id: identity.id,
  email: identity.email,
  label: identity.label,
  status: identity.status,
  created_at: identity.created_at,
  expires_at: identity.expires_at,
});

/** Whether an error is the API refusing `reveal=true` because the key lacks `secrets:read`. */
export const isRevealRefused = (error: unknown): boolean => {
  if (!(error instanceof EphemailError) || error.code !== 'forbidden') return false;
  const missing = (error.details as { missing_scopes?: unknown } | undefined)?.missing_scopes;
  return Array.isArray(missing) && missing.includes('secrets:read');
};

/** Said when `reveal` was asked for but the key may not reveal. */
export const REVEAL_REFUSED_NOTE =
  'reveal was refused: the server\'s API key lacks the secrets:read scope, so secrets stay masked (•••). Ask for a key with secrets:read to see them.';
