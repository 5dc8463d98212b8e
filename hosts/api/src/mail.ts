import { readFileSync } from 'node:fs';
import type { Ephemail } from '@ephemail/core';
import type { ImapPoller } from '@ephemail/mail-imap';
import { createImapPoller } from '@ephemail/mail-imap';
import type { SmtpInbound } from '@ephemail/mail-smtp';
import { createSmtpInbound } from '@ephemail/mail-smtp';
import type { Logger } from 'pino';
import type { HostConfig } from './config.js';

export interface RunningMail {
  /** The SMTP port actually bound, when the MX runs. */
  readonly smtpPort: number | undefined;
  readonly pollers: readonly ImapPoller[];
  close(): Promise<void>;
}

const smtpServer = (config: HostConfig, ephemail: Ephemail, logger: Logger): SmtpInbound =>
  createSmtpInbound(ephemail.mail.ingress, {
    maxMessageBytes: config.SMTP_MAX_MESSAGE_BYTES,
    maxRecipients: config.SMTP_MAX_RECIPIENTS,
    maxConnections: config.SMTP_MAX_CONNECTIONS,
    maxConnectionsPerIp: config.SMTP_MAX_CONNECTIONS_PER_IP,
    greetingDelayMs: config.SMTP_GREETING_DELAY_MS,
    closeTimeoutMs: Math.max(1, config.SHUTDOWN_GRACE_MS),
    tls:
      config.SMTP_TLS_KEY_FILE && config.SMTP_TLS_CERT_FILE
        ? { key: readFileSync(config.SMTP_TLS_KEY_FILE), cert: readFileSync(config.SMTP_TLS_CERT_FILE) }
        : undefined,
    logger: logger.child({ component: 'smtp' }),
  });

/**
 * Starts the mail transports of this host process: the SMTP MX (unless SMTP_ENABLED=false) and
 * one IMAP poller per configured upstream mailbox, all feeding core's ingress.
 */
export const startMail = async (config: HostConfig, ephemail: Ephemail, logger: Logger): Promise<RunningMail> => {
  const smtp = config.SMTP_ENABLED ? smtpServer(config, ephemail, logger) : undefined;
  const bound = smtp ? await smtp.listen(config.SMTP_PORT, config.SMTP_HOST) : undefined;
  const pollers = config.IMAP_MAILBOXES.map((mailbox) =>
    createImapPoller(ephemail.mail.ingress, ephemail.mail.cursors, mailbox, {
      pollIntervalMs: config.IMAP_POLL_INTERVAL_MS,
      logger: logger.child({ component: 'imap' }),
    }),
  );
  for (const poller of pollers) poller.start();
  if (bound) logger.info({ port: bound.port, host: config.SMTP_HOST }, 'smtp listening');
  return {
    smtpPort: bound?.port,
    pollers,
    close: async () => {
      await Promise.all([smtp?.close(), ...pollers.map((poller) => poller.stop())]);
    },
  };
};
