import type { Message } from '@ephemail/client';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { htmlToText } from './html-text.js';
import { guarded, inboxIdInput, isRevealRefused, REVEAL_REFUSED_NOTE, success, type ToolDeps } from './tool-kit.js';

const MessageOutput = z.object({
  message_id: z.string(),
  from: z.string().describe('Sender address, with the display name when there is one.'),
  subject: z.string(),
  received_at: z.string().describe('When the inbox accepted it, ISO 8601 UTC.'),
  text: z.string().describe('The body as plain text (an HTML-only body is converted; links are kept in parentheses).'),
  text_truncated: z.boolean().describe('Whether text was cut at max_chars.'),
  extraction_id: z.string().nullable().describe('The code or link found in this message, if any; wait_for_code/wait_for_link return it.'),
});

/** The fields of the API's message that this tool reads. */
type MessageFields = Pick<Message, 'id' | 'from' | 'subject' | 'received_at' | 'text' | 'html' | 'html_withheld' | 'extraction_id'>;

/** Said in place of the body of an HTML-only mail whose HTML the server withheld (a secret it could not mask in place). */
const WITHHELD_BODY =
  '(This mail has only an HTML body, and it holds a code or link the server could not mask in place, so it is withheld. ' +
  'Call again with reveal true, with a key that has secrets:read, to read it.)';

const sender = (from: MessageFields['from']): string => (from.name ? `${from.name} <${from.address}>` : from.address);

const messageView = (message: MessageFields, maxChars: number): z.infer<typeof MessageOutput> => {
  const plain = message.text.trim();
  const body = plain.length > 0 ? plain : message.html_withheld ? WITHHELD_BODY : htmlToText(message.html);
  return {
    message_id: message.id,
    from: sender(message.from),
    subject: message.subject,
    received_at: message.received_at,
    text: body.slice(0, maxChars),
    text_truncated: body.length > maxChars,
    extraction_id: message.extraction_id ?? null,
  };
};

/** Reads one message revealed if asked and allowed; otherwise masked, with a note when reveal was refused. */
const readMessage = async (deps: ToolDeps, inboxId: string, messageId: string, reveal: boolean) => {
  if (!reveal) return { message: await deps.client.getMessage(inboxId, messageId, { reveal: false }), revealed: false };
  try {
    return { message: await deps.client.getMessage(inboxId, messageId, { reveal: true }), revealed: true };
  } catch (error) {
    if (!isRevealRefused(error)) throw error;
    return { message: await deps.client.getMessage(inboxId, messageId, { reveal: false }), revealed: false, note: REVEAL_REFUSED_NOTE };
  }
};

const DESCRIPTION =
  'Read the newest message in an inbox: sender, subject, time and body as plain text. Use it to see what a site sent when ' +
  'wait_for_code or wait_for_link found nothing, or when you need other details of the email. Codes and links in the text ' +
  'are masked (•••) unless you set reveal to true AND the server\'s API key has the secrets:read scope. Does not wait: when ' +
  'the inbox has no mail yet, message is null. Returns { inbox_id, message, revealed, note? }.';

/** Registers read_latest_message. */
export const registerReadMessageTool = (server: McpServer, deps: ToolDeps): void => {
  server.registerTool(
    'read_latest_message',
    {
      title: 'Read the latest message',
      description: DESCRIPTION,
      inputSchema: {
        inbox_id: inboxIdInput,
        reveal: z.boolean().default(false).describe('Show codes and links unmasked (needs secrets:read on the server\'s key); default false.'),
        max_chars: z.number().int().min(200).max(100_000).default(8_000).describe('Cut the body text after this many characters (200-100000); default 8000.'),
      },
      outputSchema: {
        inbox_id: z.string(),
        message: MessageOutput.nullable().describe('The newest message, or null when the inbox has none yet.'),
        revealed: z.boolean().describe('Whether codes and links in the text are unmasked.'),
        note: z.string().optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ inbox_id, reveal, max_chars }) =>
      guarded(deps, async () => {
        const newest = (await deps.client.listMessages(inbox_id, { limit: 1, offset: 0 })).data[0];
        if (newest === undefined) {
          return success(`Inbox ${inbox_id} has no messages yet; use wait_for_code or wait_for_link to wait for one.`, { inbox_id, message: null, revealed: false });
        }
        const read = await readMessage(deps, inbox_id, newest.id, reveal);
        const message = messageView(read.message, max_chars);
        const head = `From: ${message.from}\nSubject: ${message.subject}\nReceived: ${message.received_at}\n\n`;
        const tail = read.note === undefined ? '' : `\n\n(${read.note})`;
        return success(head + message.text + tail, { inbox_id, message, revealed: read.revealed, ...(read.note === undefined ? {} : { note: read.note }) });
      }),
  );
};
