export { createImapPoller, type ImapPoller } from './imap-poller.js';
export { type MailboxConfig, DEFAULT_FOLDER, mailboxKey, messageSource } from './mailbox-config.js';
export { type ImapPollerOptions, type PollerLogger } from './poller-options.js';
export { type PollReport, type PollHalt } from './sync-mailbox.js';
export { type BackoffOptions, backoffDelay } from './backoff.js';
export { type MessageRouting, ROUTING_HEADERS, routeMessage } from './route-message.js';
export { parseAddressList } from './address-list.js';
