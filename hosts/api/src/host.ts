import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Ephemail, Tally, WebhookTransport } from '@ephemail/core';
import { loadCatalogue } from '@ephemail/core';
import type { createHttpApp } from '@ephemail/http-express';
import type { Logger } from 'pino';
import type { BootstrapOutcome } from './bootstrap.js';
import { bootstrapCredentials } from './bootstrap.js';
import type { HostConfig } from './config.js';
import type { HostOverrides, HostParser } from './container.js';
import { composeHost, deliversOnThreads, TOKENS } from './container.js';
import type { KafkaRuntime } from './kafka.js';
import { startMail } from './mail.js';
import { startMaintenance } from './scheduler.js';
import { startWebhookWorker } from './webhook-worker.js';
import { startReliabilityWorker } from './reliability-worker.js';
import { startExportWorker } from './export-worker.js';
import { startInternalListener } from './internal-listener.js';
import type { HostPayments } from './payments.js';
import { publicApp } from './public-app.js';
import { describeDatabaseUrl } from './store-factory.js';

export interface RunningHost {
  readonly url: string;
  readonly port: number;
  /** The SMTP port of the MX, when it runs. */
  readonly smtpPort: number | undefined;
  /** The internal listener's port (mutual TLS), when `INTERNAL_PORT` is set. */
  readonly internalPort: number | undefined;
  readonly ephemail: Ephemail;
  readonly bootstrap: BootstrapOutcome;
  /** Stops taking requests, lets those in flight finish (up to the grace period), closes the store. */
  close(): Promise<void>;
}

const listen = (server: Server, port: number, host: string): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

const withinGrace = (work: Promise<void> | undefined, ms: number): Promise<void> =>
  work === undefined ? Promise.resolve() : Promise.race([work, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);

/** Starts one host process's services: store, bootstrap credential, HTTP API, maintenance. */
export const startHost = async (config: HostConfig, overrides: HostOverrides = {}): Promise<RunningHost> => {
  const c = composeHost(config, overrides);
  const logger = c.resolve<Logger>(TOKENS.logger);
  const ephemail = c.resolve<Ephemail>(TOKENS.ephemail);
  const bootstrap = await ephemail
    .init()
    // An invalid catalogue stops the start, naming every file at fault (CatalogueError).
    .then(() => ephemail.marketplace.sync(config.MARKETPLACE_DIR === undefined ? undefined : loadCatalogue(config.MARKETPLACE_DIR)))
    .then(() => bootstrapCredentials(ephemail, config))
    .catch(async (error: unknown) => {
      // A store that cannot start, or a catalogue that cannot be served, must not keep the
      // process alive (an open client, a file lock, the parser's threads).
      await ephemail.close().catch(() => undefined);
      await c.resolve<HostParser>(TOKENS.parser).close().catch(() => undefined);
      throw error;
    });
  const http = c.resolve<ReturnType<typeof createHttpApp>>(TOKENS.http);
  const payments = c.resolve<HostPayments>(TOKENS.payments);
  const server = createServer(publicApp(http.app, ephemail, payments));
  await listen(server, config.PORT, config.HOST).catch(async (error: unknown) => {
    await ephemail.close().catch(() => undefined);
    throw error;
  });
  const port = (server.address() as AddressInfo).port;
  payments.bind(`http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`);
  const internal = await startInternalListener(config, ephemail).catch(async (error: unknown) => {
    server.close();
    await ephemail.close().catch(() => undefined);
    throw error;
  });
  const owner = `host-${process.pid}-${randomBytes(4).toString('hex')}`;
  const stopMaintenance = startMaintenance(ephemail, owner, config.MAINTENANCE_INTERVAL_MS, logger);
  const stopWebhooks = startWebhookWorker(
    ephemail,
    c.resolve<WebhookTransport>(TOKENS.webhookTransport),
    { owner, intervalMs: config.WEBHOOK_INTERVAL_MS, concurrency: config.WEBHOOK_CONCURRENCY, timeoutMs: config.WEBHOOK_TIMEOUT_MS },
    logger.child({ component: 'webhooks' }),
  );
  const stopReliability = startReliabilityWorker(
    ephemail,
    c.resolve<WebhookTransport>(TOKENS.webhookTransport),
    { owner, intervalMs: config.RELIABILITY_INTERVAL_MS },
    logger.child({ component: 'reliability' }),
  );
  const stopExports = startExportWorker(
    ephemail,
    { owner, intervalMs: config.EXPORT_INTERVAL_MS, concurrency: config.EXPORT_CONCURRENCY },
    logger.child({ component: 'exports' }),
  );
  const kafka = c.resolve<KafkaRuntime | undefined>(TOKENS.kafka);
  await kafka?.start(ephemail, owner);
  const mailConfig = deliversOnThreads(config, overrides) ? config : { ...config, DELIVERY_THREADS: 0 };
  const mail = await startMail(mailConfig, ephemail, logger, c.resolve<Tally>(TOKENS.meter)).catch(async (error: unknown) => {
    await kafka?.close();
    await internal?.close();
    await stopReliability();
    await stopExports();
    await stopWebhooks();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await ephemail.close().catch(() => undefined);
    await stopMaintenance();
    server.close();
    throw error;
  });
  logger.info({ port, host: config.HOST, mode: config.EPHEMAIL_MODE, payments: config.PAYMENTS, database: describeDatabaseUrl(config.DATABASE_URL) }, 'listening');
  if (config.EPHEMAIL_MODE === 'production' && config.METRICS_TOKEN === undefined) logger.warn({}, 'no METRICS_TOKEN: /metrics answers 404 in production; set one and scrape with it as a bearer token');
  if (config.EPHEMAIL_MODE === 'production' && config.PAYMENTS === 'sandbox') logger.warn({}, 'PAYMENTS=sandbox in production (PAYMENTS_SANDBOX_IN_PRODUCTION=true): checkouts take no money');
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await mail.close();
      await internal?.close();
      await stopReliability();
      // Running exports hand themselves back (pending) before the store closes.
      await stopExports();
      await stopWebhooks();
      // A broker that never answers must not hold the shutdown past its grace period.
      await withinGrace(kafka?.close(), config.SHUTDOWN_GRACE_MS);
      await stopMaintenance();
      // Long-polls answer now instead of holding their requests (and the drain) for up to 60 s.
      ephemail.longPolls.end();
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_GRACE_MS);
      await drained;
      clearTimeout(grace);
      await ephemail.close();
      await c.resolve<HostParser>(TOKENS.parser).close();
      logger.info({}, 'stopped');
    })());
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  return { url, port, smtpPort: mail.smtpPort, internalPort: internal?.port, ephemail, bootstrap, close };
};
