import { EphemailTimeoutError, type WaitedCode, type WaitedLink } from '@ephemail/client';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { InboxSeen } from './errors.js';
import { guarded, inboxIdInput, isRevealRefused, REVEAL_REFUSED_NOTE, success, type ToolDeps } from './tool-kit.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How often a waiting call reports progress, when the caller asked for progress. */
const PROGRESS_EVERY_MS = 5_000;

const waitInputs = (what: string) => ({
  inbox_id: inboxIdInput,
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(300)
    .default(45)
    .describe(
      `How long to block waiting for the ${what}, in seconds (1-300); default 45. Many MCP clients end a tool call after ` +
        '60 s, so stay below that unless yours allows longer; on a timeout, simply call again.',
    ),
  after_extraction_id: z
    .string()
    .optional()
    .describe(
      `Only a ${what} newer than this extraction id counts. Pass the extraction_id of a previous result when you asked the ` +
        `site for a new ${what}; leave it out to get the latest one, even if it arrived before this call.`,
    ),
  reveal: z
    .boolean()
    .default(true)
    .describe(
      `Return the raw ${what} (default true). Only works when the server's API key has the secrets:read scope; otherwise ` +
        `the result holds the masked form (e.g. 4•••3) and a note. Set false to only confirm that a ${what} arrived.`,
    ),
});

const waitOutputs = (what: 'code' | 'link') => ({
  inbox_id: z.string(),
  [what]: z.string().nullable().describe(`The raw ${what}; null when it was not revealed (see note).`),
  [`redacted_${what}`]: z.string().describe(`The ${what} with its secret part masked by •••.`),
  revealed: z.boolean().describe(`Whether ${what} holds the raw value.`),
  extraction_id: z.string().describe('Pass as after_extraction_id to wait for a newer one.'),
  message_id: z.string().describe('The message it came from; read_latest_message shows the latest message.'),
  confidence: z.number().describe('How sure the extraction is, 0.5-1.'),
  extracted_at: z.string(),
  ...(what === 'link' ? { link_kind: z.string().nullable().describe('sign_in, verify_email, password_reset, invite or other.') } : {}),
  note: z.string().optional(),
});

/** Sends `notifications/progress` every few seconds while `work` runs, if the caller gave a progress token. */
const withProgress = async <T>(extra: Extra, timeoutSeconds: number, what: string, work: Promise<T>): Promise<T> => {
  const token = extra._meta?.progressToken;
  if (token === undefined) return work;
  const started = Date.now();
  const timer = setInterval(() => {
    const progress = Math.round((Date.now() - started) / 1000);
    const params = { progressToken: token, progress, total: timeoutSeconds, message: `waiting for a ${what} (${progress} s)` };
    extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
  }, PROGRESS_EVERY_MS);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
};

interface WaitArgs {
  readonly inbox_id: string;
  readonly timeout_seconds: number;
  readonly after_extraction_id?: string | undefined;
  readonly reveal: boolean;
}

type Waiter = 'waitForCode' | 'waitForLink';

/** Waits once with reveal as asked; when the key may not reveal, waits again masked and says so. */
const waitRevealingIfAllowed = async (deps: ToolDeps, waiter: Waiter, args: WaitArgs, extra: Extra) => {
  const options = (reveal: boolean) => ({
    timeoutMs: args.timeout_seconds * 1000,
    after: args.after_extraction_id,
    reveal,
    signal: extra.signal,
  });
  if (!args.reveal) return { found: await deps.client[waiter](args.inbox_id, options(false)), note: undefined };
  try {
    return { found: await deps.client[waiter](args.inbox_id, options(true)), note: undefined };
  } catch (error) {
    // The API checks scopes before it starts waiting, so this costs no waiting time.
    if (!isRevealRefused(error)) throw error;
    return { found: await deps.client[waiter](args.inbox_id, options(false)), note: REVEAL_REFUSED_NOTE };
  }
};

/** How long the look into an inbox after a timeout may take before the advice goes without it. */
const LOOK_MS = 5_000;

/** After a timeout: the inbox's address and its latest message (subjects masked), to tell "no mail at all" from "mail without it". */
const lookAfterTimeout =
  (deps: ToolDeps, inboxId: string) =>
  async (error: unknown): Promise<InboxSeen | undefined> => {
    if (!(error instanceof EphemailTimeoutError)) return undefined;
    const signal = AbortSignal.timeout(LOOK_MS);
    const [inbox, page] = await Promise.all([deps.client.getIdentity(inboxId, { signal }), deps.client.listMessages(inboxId, { limit: 1 }, { signal })]);
    const latest = page.data[0];
    return {
      email: inbox.email,
      messages: page.total,
      ...(latest === undefined ? {} : { latest: { from: latest.from.address, subject: latest.subject, receivedAt: latest.received_at } }),
    };
  };

const DESCRIPTIONS = {
  code:
    'Wait for a one-time code (OTP, verification or sign-in code) to arrive in an inbox, and return it. Use it right after ' +
    'you gave the inbox address to a site and asked it to send a code. It BLOCKS until a code arrives or timeout_seconds ' +
    '(default 45) pass, and answers at once when the inbox already holds one: the latest code, even if a later mail brought a ' +
    'link, or one in a mail that also holds a link (newer than after_extraction_id, if given). ' +
    'Returns { code, redacted_code, revealed, extraction_id, message_id, confidence, extracted_at }. ' +
    'On a timeout the result is an error saying whether any mail arrived; call again to keep waiting. On a deleted or ' +
    'expired inbox it answers an error at once: no mail can arrive there any more.',
  link:
    'Wait for a magic link (sign-in, email verification, password reset or invitation link) to arrive in an inbox, and ' +
    'return it. Use it right after you gave the inbox address to a site and asked it to send a link. It BLOCKS until a ' +
    'link arrives or timeout_seconds (default 45) pass, and answers at once when the inbox already holds one: the latest ' +
    'link, even if a later mail brought a code, or one in a mail that also holds a code (newer than after_extraction_id, if ' +
    'given). Returns { link, redacted_link, link_kind, revealed, extraction_id, message_id, confidence, extracted_at }. On a ' +
    'timeout the result is an error saying whether any mail arrived; call again to keep waiting. On a deleted or expired ' +
    'inbox it answers an error at once: no mail can arrive there any more.',
} as const;

const waitResult = (inboxId: string, what: 'code' | 'link', found: WaitedCode | WaitedLink, note: string | undefined) => {
  const raw = ('code' in found ? found.code : found.link) ?? null;
  const { extraction } = found;
  const structured: Record<string, unknown> = {
    inbox_id: inboxId,
    [what]: raw,
    [`redacted_${what}`]: found.redacted,
    revealed: raw !== null,
    extraction_id: extraction.id,
    message_id: extraction.message_id,
    confidence: extraction.confidence,
    extracted_at: extraction.extracted_at,
    ...(what === 'link' ? { link_kind: extraction.link_kind } : {}),
    ...(note === undefined ? {} : { note }),
  };
  const shown = raw ?? `${found.redacted} (masked)`;
  return success(`The ${what} is ${shown} (extraction_id ${extraction.id}).${note === undefined ? '' : ` ${note}`}`, structured);
};

const registerWait = (server: McpServer, deps: ToolDeps, what: 'code' | 'link'): void => {
  const waiter: Waiter = what === 'code' ? 'waitForCode' : 'waitForLink';
  server.registerTool(
    `wait_for_${what}`,
    {
      title: what === 'code' ? 'Wait for a one-time code' : 'Wait for a magic link',
      description: DESCRIPTIONS[what],
      inputSchema: waitInputs(what),
      outputSchema: waitOutputs(what),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(
        deps,
        async () => {
          const waiting = waitRevealingIfAllowed(deps, waiter, args, extra);
          const { found, note } = await withProgress(extra, args.timeout_seconds, what, waiting);
          return waitResult(args.inbox_id, what, found, note);
        },
        what,
        lookAfterTimeout(deps, args.inbox_id),
      ),
  );
};

/** Registers wait_for_code and wait_for_link. */
export const registerWaitTools = (server: McpServer, deps: ToolDeps): void => {
  registerWait(server, deps, 'code');
  registerWait(server, deps, 'link');
};
