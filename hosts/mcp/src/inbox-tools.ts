import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, inboxIdInput, InboxOutput, inboxView, success, type ToolDeps } from './tool-kit.js';

const hoursInput = (what: string, byDefault?: number) => {
  const hours = z.number().int().min(1).max(720);
  const described = `${what} In hours: a whole number from 1 to 720 (30 days)`;
  return byDefault === undefined
    ? hours.describe(`${described}.`)
    : hours.default(byDefault).describe(`${described}; default ${byDefault}.`);
};

const registerCreateInbox = (server: McpServer, deps: ToolDeps): void => {
  server.registerTool(
    'create_inbox',
    {
      title: 'Create a disposable inbox',
      description:
        'Create a new disposable email inbox and return its address. Use it whenever you need an email address of your own: ' +
        'to sign up, log in, reset a password or accept an invitation on a site or app. Give the returned `email` to that site, ' +
        'then call wait_for_code or wait_for_link with the returned `id` as inbox_id. The inbox accepts mail for ttl_hours ' +
        '(default 24) and then expires; extend_inbox gives it more time, delete_inbox ends it when you are done. ' +
        'Returns the inbox: id, email, label, status, created_at, expires_at.',
      inputSchema: {
        label: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .default('mcp inbox')
          .describe('A short name to recognise the inbox by later, e.g. "signup on example.com"; 1-200 characters. Default "mcp inbox".'),
        ttl_hours: hoursInput('How long the inbox accepts mail before it expires.', 24),
      },
      outputSchema: InboxOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ label, ttl_hours }, extra) =>
      guarded(deps, async () => {
        const identity = await deps.client.createIdentity({ label, ttl_hours }, { signal: extra.signal });
        const inbox = inboxView(identity);
        return success(`Created inbox ${inbox.email} (inbox_id ${inbox.id}); it expires at ${inbox.expires_at}.`, inbox);
      }),
  );
};

const registerListInboxes = (server: McpServer, deps: ToolDeps): void => {
  server.registerTool(
    'list_inboxes',
    {
      title: 'List inboxes',
      description:
        "List this project's inboxes, newest first. Use it to find the id or address of an inbox created earlier, or to see " +
        'which inboxes are still live. Filter with status; page with limit and offset. Returns { inboxes, total, limit, offset } ' +
        'where total counts every match, not only this page.',
      inputSchema: {
        status: z
          .enum(['provisioned', 'active', 'extended', 'squashed', 'expired'])
          .optional()
          .describe('Only inboxes in this status. Live ones are provisioned, active and extended. Default: every status.'),
        limit: z.number().int().min(1).max(200).default(20).describe('At most this many inboxes (1-200); default 20.'),
        offset: z.number().int().min(0).default(0).describe('Skip this many inboxes first, for the next page; default 0.'),
      },
      outputSchema: {
        inboxes: z.array(InboxOutput),
        total: z.number().int().describe('How many inboxes match, across all pages.'),
        limit: z.number().int(),
        offset: z.number().int(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ status, limit, offset }) =>
      guarded(deps, async () => {
        const page = await deps.client.listIdentities({ status, limit, offset });
        const inboxes = page.data.map(inboxView);
        const { total } = page;
        const lines = inboxes.map((inbox) => `- ${inbox.email} (${inbox.id}) ${inbox.status}, expires ${inbox.expires_at}`);
        const text = [`${inboxes.length} of ${total} inbox(es)${status === undefined ? '' : ` in status ${status}`}:`, ...lines].join('\n');
        return success(text, { inboxes, total, limit, offset });
      }),
  );
};

const registerExtendInbox = (server: McpServer, deps: ToolDeps): void => {
  server.registerTool(
    'extend_inbox',
    {
      title: 'Extend an inbox',
      description:
        "Give a live inbox more time: adds `hours` to its current expiry (counted from expires_at, not from now). Use it when a " +
        'flow will outlast the inbox. A deleted (squashed) or expired inbox cannot be extended; create a new one instead. ' +
        'Returns the inbox with its new expires_at and status "extended".',
      inputSchema: { inbox_id: inboxIdInput, hours: hoursInput('How much longer the inbox should live.') },
      outputSchema: InboxOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ inbox_id, hours }) =>
      guarded(deps, async () => {
        const inbox = inboxView(await deps.client.extendIdentity(inbox_id, { additional_hours: hours }));
        return success(`Extended inbox ${inbox.email} by ${hours} h; it now expires at ${inbox.expires_at}.`, inbox);
      }),
  );
};

const registerDeleteInbox = (server: McpServer, deps: ToolDeps): void => {
  server.registerTool(
    'delete_inbox',
    {
      title: 'Delete (squash) an inbox',
      description:
        'Delete an inbox for good when you are done with it (the API calls this "squash"). From then on its address refuses all ' +
        'mail and it cannot be extended or reused; this cannot be undone. It also frees a place in the plan\'s inbox limit. ' +
        'Returns the inbox with status "squashed".',
      inputSchema: { inbox_id: inboxIdInput },
      outputSchema: InboxOutput.shape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ inbox_id }) =>
      guarded(deps, async () => {
        const inbox = inboxView(await deps.client.squashIdentity(inbox_id));
        return success(`Deleted inbox ${inbox.email} (${inbox.id}); it accepts no more mail.`, inbox);
      }),
  );
};

/** Registers create_inbox, list_inboxes, extend_inbox and delete_inbox. */
export const registerInboxTools = (server: McpServer, deps: ToolDeps): void => {
  registerCreateInbox(server, deps);
  registerListInboxes(server, deps);
  registerExtendInbox(server, deps);
  registerDeleteInbox(server, deps);
};
