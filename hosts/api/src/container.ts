import 'reflect-metadata';
import type { DocumentStore, Ephemail, MailSender, MessageParser, Tally } from '@ephemail/core';
import { createEphemail } from '@ephemail/core';
import { createHttpApp, createPromMeter, type MetricsAccess } from '@ephemail/http-express';
import { createGuardedClient, createUrlGuard } from '@ephemail/http-outbound';
import { createDnsRecords, createDnsResolver, createMailauthAuthenticator } from '@ephemail/mail-auth';
import { createPostalMimeMailParser, createWorkerMailParser } from '@ephemail/mail-parse';
import { createNodemailerMailSender } from '@ephemail/mail-smtp';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { DependencyContainer } from 'tsyringe';
import { container as root, instanceCachingFactory } from 'tsyringe';
import type { HostConfig } from './config.js';
import { createHostPayments, type HostPayments } from './payments.js';
import { createPdfInvoiceRenderer } from './invoice-pdf.js';
import { freeGrantSecret } from './free-grants.js';
import { loadDataKey } from './data-key.js';
import { hostExportOptions } from './exports.js';
import { createKafkaRuntime, type KafkaRuntime } from './kafka.js';
import { createLogger } from './logger.js';
import { meteredStore } from './metered-store.js';
import { openStore } from './store-factory.js';

/** Injection tokens of the composition root. */
export const TOKENS = {
  config: Symbol('HostConfig'),
  logger: Symbol('Logger'),
  store: Symbol('DocumentStore'),
  ephemail: Symbol('Ephemail'),
  registry: Symbol('MetricsRegistry'),
  meter: Symbol('Meter'),
  http: Symbol('HttpApp'),
  mailSender: Symbol('MailSender'),
  webhookTransport: Symbol('WebhookTransport'),
  kafka: Symbol('KafkaRuntime'),
  parser: Symbol('MessageParser'),
  payments: Symbol('HostPayments'),
} as const;

/** The parser of received mail, and how to stop its threads (a no-op without any). */
export interface HostParser {
  readonly parser: MessageParser;
  readonly close: () => Promise<void>;
}

export interface HostOverrides {
  readonly store?: DocumentStore;
  readonly logger?: Logger;
}

const dataKeyOrWarn = (config: HostConfig, logger: Logger): Buffer | undefined => {
  const key = loadDataKey(config);
  if (key === undefined) {
    logger.warn({}, 'no DATA_KEY: webhook secrets are sealed with a key of this process only; they will not survive a restart or work across hosts');
  }
  return key;
};

/**
 * How consumers' sign-in links leave: mailed through SMTP_OUTBOUND_URL, and in development mode
 * without it, logged (clearly marked) so that `npm start` alone lets a person sign in.
 */
const consumerOptions = (config: HostConfig, d: DependencyContainer) => {
  const mailer = d.isRegistered(TOKENS.mailSender) ? d.resolve<MailSender>(TOKENS.mailSender) : undefined;
  const logger = d.resolve<Logger>(TOKENS.logger);
  const logLinks = mailer === undefined && config.EPHEMAIL_MODE === 'development';
  return {
    ...(mailer === undefined ? {} : { mailer }),
    linkBase: () => d.resolve<HostPayments>(TOKENS.payments).publicUrl(),
    ...(logLinks ? { onMagicLink: (email: string, link: string) => logger.warn({ email, signInLink: link }, 'DEVELOPMENT SIGN-IN LINK (no SMTP_OUTBOUND_URL; open it to sign in)') } : {}),
  };
};

/**
 * Who reads /metrics: with METRICS_TOKEN, a scraper presenting it as a bearer token, in any mode;
 * without, anyone in development (the host listens on loopback by default) and no one in
 * production, where it answers 404 (host.ts logs why at start).
 */
export const metricsAccess = (config: HostConfig): MetricsAccess => {
  if (config.METRICS_TOKEN !== undefined) return { bearerToken: config.METRICS_TOKEN };
  return config.EPHEMAIL_MODE === 'production' ? 'off' : 'open';
};

/** With `PAYMENTS=off` no provider is passed: the core then answers that billing is not configured. */
const billingOptions = (payments: HostPayments) => ({
  ...(payments.provider === undefined ? {} : { provider: payments.provider }),
  renderer: createPdfInvoiceRenderer(),
});

/**
 * Whether received mail is delivered on delivery threads: some are configured, mail is received
 * (the MX or a poller runs), and the store is the one `DATABASE_URL` names (the threads open it
 * themselves, so not a store a caller handed in).
 */
export const deliversOnThreads = (config: HostConfig, overrides: HostOverrides): boolean =>
  config.DELIVERY_THREADS > 0 && overrides.store === undefined && (config.SMTP_ENABLED || config.IMAP_MAILBOXES.length > 0);

/**
 * Wires the host: each port gets its adapter here and only here (tsyringe stays in hosts/*).
 * A child container per host instance, so tests can run several hosts in one process.
 */
export const composeHost = (config: HostConfig, overrides: HostOverrides = {}): DependencyContainer => {
  const c = root.createChildContainer();
  c.register(TOKENS.config, { useValue: config });
  c.register(TOKENS.logger, { useFactory: instanceCachingFactory(() => overrides.logger ?? createLogger(config.LOG_LEVEL)) });
  c.register(TOKENS.registry, { useFactory: instanceCachingFactory(() => new Registry()) });
  // What this host and its delivery threads count, served by the registry at /metrics.
  c.register(TOKENS.meter, { useFactory: instanceCachingFactory((d) => createPromMeter(d.resolve<Registry>(TOKENS.registry))) });
  c.register(TOKENS.store, {
    useFactory: instanceCachingFactory((d) =>
      meteredStore(
        overrides.store ?? openStore(config.DATABASE_URL, (error) => d.resolve<Logger>(TOKENS.logger).warn({ err: error.message }, 'store warning')),
        d.resolve<Tally>(TOKENS.meter),
      ),
    ),
  });
  c.register(TOKENS.parser, {
    useFactory: instanceCachingFactory((d): HostParser => {
      // With delivery threads, this thread parses only while none runs; PARSE_THREADS are theirs.
      if (config.PARSE_THREADS === 0 || deliversOnThreads(config, overrides)) {
        return { parser: createPostalMimeMailParser({ maxBytes: config.SMTP_MAX_MESSAGE_BYTES }), close: async () => undefined };
      }
      const meter = d.resolve<Tally>(TOKENS.meter);
      const parser = createWorkerMailParser({ maxBytes: config.SMTP_MAX_MESSAGE_BYTES, threads: config.PARSE_THREADS, meter });
      return { parser, close: () => parser.close() };
    }),
  });
  c.register(TOKENS.payments, {
    useFactory: instanceCachingFactory(() => createHostPayments(config, loadDataKey(config))),
  });
  c.register(TOKENS.ephemail, {
    useFactory: instanceCachingFactory((d) =>
      createEphemail({
        store: d.resolve<DocumentStore>(TOKENS.store),
        inboxDomain: config.INBOX_DOMAIN,
        parser: d.resolve<HostParser>(TOKENS.parser).parser,
        authenticator:
          config.MAIL_AUTH === 'on' ? createMailauthAuthenticator({ resolver: createDnsResolver(config.DNS_SERVERS) }) : undefined,
        maxMessagesPerIdentity: config.MAX_MESSAGES_PER_IDENTITY,
        meter: d.resolve<Tally>(TOKENS.meter),
        dataKey: dataKeyOrWarn(config, d.resolve<Logger>(TOKENS.logger)),
        urlGuard: createUrlGuard(),
        domains: { dns: createDnsRecords(createDnsResolver(config.DNS_SERVERS)), mxHost: config.MX_HOST },
        billing: billingOptions(d.resolve<HostPayments>(TOKENS.payments)),
        consumer: consumerOptions(config, d),
        free: { requestsPerMinute: config.FREE_REQUESTS_PER_MINUTE, ...(freeGrantSecret(config) === undefined ? {} : { grantSecret: freeGrantSecret(config)! }) },
        exports: hostExportOptions(config, loadDataKey(config), () => d.resolve<HostPayments>(TOKENS.payments).publicUrl()),
        config: {
          allowHttpLoopback: config.EPHEMAIL_MODE === 'development',
          webhookRetry: { attempts: config.WEBHOOK_MAX_ATTEMPTS, baseMs: config.WEBHOOK_BASE_DELAY_MS, capMs: config.WEBHOOK_MAX_DELAY_MS },
        },
      }),
    ),
  });
  c.register(TOKENS.kafka, {
    useFactory: instanceCachingFactory((d) => createKafkaRuntime(config, d.resolve<Logger>(TOKENS.logger), d.resolve<Tally>(TOKENS.meter))),
  });
  c.register(TOKENS.http, {
    useFactory: instanceCachingFactory((d) => {
      const kafka = d.resolve<KafkaRuntime | undefined>(TOKENS.kafka);
      return createHttpApp(d.resolve<Ephemail>(TOKENS.ephemail), {
        logger: d.resolve<Logger>(TOKENS.logger),
        registry: d.resolve<Registry>(TOKENS.registry),
        trustProxy: config.TRUST_PROXY,
        metricsAccess: metricsAccess(config),
        readinessChecks: kafka === undefined ? [] : [() => kafka.ready()],
      });
    }),
  });
  c.register(TOKENS.webhookTransport, {
    useFactory: instanceCachingFactory(() =>
      createGuardedClient({ allowHttpLoopback: config.EPHEMAIL_MODE === 'development', timeoutMs: config.WEBHOOK_TIMEOUT_MS }),
    ),
  });
  if (config.SMTP_OUTBOUND_URL !== undefined) {
    const url = config.SMTP_OUTBOUND_URL;
    c.register(TOKENS.mailSender, { useFactory: instanceCachingFactory(() => createNodemailerMailSender({ url, from: config.MAIL_FROM })) });
  }
  return c;
};
