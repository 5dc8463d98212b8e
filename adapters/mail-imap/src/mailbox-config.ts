import type { ImapFlowOptions } from 'imapflow';

/**
 * One upstream mailbox to poll. Give exactly one of `password` and `accessToken`; neither ever
 * leaves this object except in the IMAP authentication exchange.
 */
export interface MailboxConfig {
  /** Server host name or address. */
  readonly host: string;
  /** Server port, usually 993 with `secure` and 143 without. */
  readonly port: number;
  /**
   * `true`: TLS from the first byte (IMAPS). `false`: plain TCP, upgraded with STARTTLS when the
   * server offers it.
   */
  readonly secure: boolean;
  /** Login name. */
  readonly user: string;
  /** Password for LOGIN / AUTHENTICATE PLAIN. */
  readonly password?: string;
  /** OAuth2 access token, sent with SASL XOAUTH2 instead of a password. */
  readonly accessToken?: string;
  /** Folder to read. Default `INBOX`. */
  readonly folder?: string;
}

/** The folder polled when the configuration names none. */
export const DEFAULT_FOLDER = 'INBOX';

const folderOf = (mailbox: MailboxConfig): string => mailbox.folder ?? DEFAULT_FOLDER;

/**
 * The stable key a mailbox's cursor is stored under: host, port, user and folder, never a
 * credential, so rotating a password or token keeps the cursor. Host names compare
 * case-insensitively; user and folder names do not (IMAP servers may treat them as distinct).
 */
export const mailboxKey = (mailbox: MailboxConfig): string =>
  `imap://${encodeURIComponent(mailbox.user)}@${mailbox.host.toLowerCase()}:${mailbox.port}/${encodeURIComponent(folderOf(mailbox))}`;

/** Where one message came from, as recorded with it: `imap://user@host:port/folder#uid`. */
export const messageSource = (mailbox: MailboxConfig, uid: number): string => `${mailboxKey(mailbox)}#${uid}`;

/** Throws when the configuration cannot work, so a host fails at start rather than in a retry loop. */
export const assertMailboxConfig = (mailbox: MailboxConfig): void => {
  const hasPassword = mailbox.password !== undefined;
  const hasToken = mailbox.accessToken !== undefined;
  if (hasPassword === hasToken) {
    throw new TypeError(`IMAP mailbox ${mailboxKey(mailbox)} needs exactly one of password and accessToken`);
  }
  if (!Number.isInteger(mailbox.port) || mailbox.port < 1 || mailbox.port > 65535) {
    throw new RangeError(`IMAP mailbox ${mailbox.user}@${mailbox.host}: port must be 1..65535`);
  }
  if (mailbox.host === '' || mailbox.user === '' || folderOf(mailbox) === '') {
    throw new TypeError('IMAP mailbox: host, user and folder must not be empty');
  }
};

/** The imapflow options for one connection. IDLE is driven by the poller, never automatically. */
export const imapFlowOptions = (mailbox: MailboxConfig): ImapFlowOptions => ({
  host: mailbox.host,
  port: mailbox.port,
  secure: mailbox.secure,
  auth:
    mailbox.accessToken !== undefined
      ? { user: mailbox.user, accessToken: mailbox.accessToken }
      : { user: mailbox.user, pass: mailbox.password ?? '' },
  // imapflow's own logger prints protocol traffic to stdout; the poller logs through the host.
  logger: false,
  disableAutoIdle: true,
});

/**
 * Removes the mailbox's secrets from a text about to be logged. Servers echo odd things in their
 * error responses, so nothing derived from the connection is trusted to be clean.
 */
export const redact = (text: string, mailbox: MailboxConfig): string => {
  let clean = text;
  for (const secret of [mailbox.password, mailbox.accessToken]) {
    if (secret !== undefined && secret !== '') clean = clean.split(secret).join('[redacted]');
  }
  return clean;
};

/** A loggable description of an error: message, code and server response, secrets removed. */
export const describeError = (error: unknown, mailbox: MailboxConfig): Record<string, unknown> => {
  if (!(error instanceof Error)) return { error: redact(String(error), mailbox) };
  const details = error as Error & { code?: unknown; response?: unknown; authenticationFailed?: unknown };
  const described: Record<string, unknown> = { error: redact(error.message, mailbox) };
  if (typeof details.code === 'string') described.code = details.code;
  if (details.authenticationFailed === true) described.authenticationFailed = true;
  if (typeof details.response === 'string') described.response = redact(details.response, mailbox);
  return described;
};
