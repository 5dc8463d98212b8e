import { readFileSync } from 'node:fs';
import type { Ephemail, MailIngress, Tally } from '@ephemail/core';
import type { ImapPoller } from '@ephemail/mail-imap';
import { createImapPoller } from '@ephemail/mail-imap';
import type { SmtpInbound } from '@ephemail/mail-smtp';
import { createSmtpInbound } from '@ephemail/mail-smtp';
import type { Logger } from 'pino';
import type { HostConfig } from './config.js';
import type { DeliveryThreads } from './delivery-threads.js';
import { startDeliveryThreads } from './delivery-threads.js';

export interface RunningMail {
  /** The SMTP port actually bound, when the MX runs. */
  readonly smtpPort: number | undefined;
  readonly pollers: readonly ImapPoller[];
  close(): Promise<void>;
}

const smtpServer = (config: HostConfig, ingress: MailIngress, logger: Logger, meter: Tally): SmtpInbound =>
  createSmtpInbound(ingress, {
    maxMessageBytes: config.SMTP_MAX_MESSAGE_BYTES,
    maxRecipients: config.SMTP_MAX_RECIPIENTS,
    maxConnections: config.SMTP_MAX_CONNECTIONS,
    maxConnectionsPerIp: config.SMTP_MAX_CONNECTIONS_PER_IP,
    maxConnectionsPerNetwork: config.SMTP_MAX_CONNECTIONS_PER_NETWORK,
    greetingDelayMs: config.SMTP_GREETING_DELAY_MS,
    closeTimeoutMs: Math.max(1, config.SHUTDOWN_GRACE_MS),
    tls:
      config.SMTP_TLS_KEY_FILE && config.SMTP_TLS_CERT_FILE
        ? { key: readFileSync(config.SMTP_TLS_KEY_FILE), cert: readFileSync(config.SMTP_TLS_CERT_FILE) }
        : undefined,
    logger: logger.child({ component: 'smtp' }),
    meter,
  });

/**
 * Delivery threads over the host's store, when configured (see delivery-threads.ts). The host
 * passes DELIVERY_THREADS=0 when nothing receives mail or it was handed its own store
 * (`deliversOnThreads`).
 */
const deliveryThreads = (config: HostConfig, ephemail: Ephemail, logger: Logger, meter: Tally): DeliveryThreads | undefined => {
  if (config.DELIVERY_THREADS === 0) return undefined;
  const log = logger.child({ component: 'delivery' });
  return startDeliveryThreads({
    threads: config.DELIVERY_THREADS,
    heapLimitMb: config.DELIVERY_THREAD_HEAP_MB,
    setup: {
      databaseUrl: config.DATABASE_URL,
      inboxDomain: config.INBOX_DOMAIN,
      maxMessageBytes: config.SMTP_MAX_MESSAGE_BYTES,
      maxMessagesPerIdentity: config.MAX_MESSAGES_PER_IDENTITY,
      mailAuth: config.MAIL_AUTH === 'on',
      dnsServers: config.DNS_SERVERS,
      parseThreads: config.PARSE_THREADS,
    },
    local: ephemail.mail.ingress,
    onEvent: (event) => ephemail.events.publish(event),
    onWarning: (message) => log.warn({}, message),
    // Counted on a thread, served here: /metrics misses nothing a thread did.
    onMetrics: (tally) => meter.merge(tally),
  });
};

/**
 * Starts the mail transports of this host process: the SMTP MX (unless SMTP_ENABLED=false) and
 * one IMAP poller per configured upstream mailbox, all feeding core's ingress, through delivery
 * threads when DELIVERY_THREADS is above 0.
 */
export const startMail = async (config: HostConfig, ephemail: Ephemail, logger: Logger, meter: Tally): Promise<RunningMail> => {
  const threads = deliveryThreads(config, ephemail, logger, meter);
  const ingress = threads?.ingress ?? ephemail.mail.ingress;
  const smtp = config.SMTP_ENABLED ? smtpServer(config, ingress, logger, meter) : undefined;
  const bound = smtp
    ? await smtp.listen(config.SMTP_PORT, config.SMTP_HOST).catch(async (error: unknown) => {
        await threads?.close(0);
        throw error;
      })
    : undefined;
  const pollers = config.IMAP_MAILBOXES.map((mailbox, i) =>
    createImapPoller(ingress, ephemail.mail.cursors, mailbox, {
      pollIntervalMs: config.IMAP_POLL_INTERVAL_MS,
      logger: logger.child({ component: 'imap' }),
      meter,
      // The operator's name for the mailbox, else its place in IMAP_MAILBOXES: never the login, which may be an address.
      metricsLabel: mailbox.name ?? String(i),
    }),
  );
  for (const poller of pollers) poller.start();
  if (bound) logger.info({ port: bound.port, host: config.SMTP_HOST, deliveryThreads: config.DELIVERY_THREADS }, 'smtp listening');
  return {
    smtpPort: bound?.port,
    pollers,
    close: async () => {
      await Promise.all([smtp?.close(), ...pollers.map((poller) => poller.stop())]);
      // After the transports: what they handed over is delivered (within the grace) before the threads stop.
      await threads?.close(config.SHUTDOWN_GRACE_MS);
    },
  };
};
