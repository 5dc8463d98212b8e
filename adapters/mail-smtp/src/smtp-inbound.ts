import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type { MailIngress } from '@ephemail/core';
import type { SMTPServerOptions } from 'smtp-server';
import { MxServer } from './mx-server.js';
import { resolveOptions, type ResolvedSmtpInboundOptions, type SmtpInboundOptions } from './options.js';
import { SessionHandlers } from './session-handlers.js';
import { SessionRegistry } from './session-registry.js';

/** A running inbound MX. */
export interface SmtpInbound {
  /** Starts accepting sessions; resolves with the bound port (useful with port 0). */
  listen(port: number, host?: string): Promise<{ readonly port: number }>;
  /**
   * Stops accepting sessions and resolves once the open ones ended: idle sessions are told
   * 421 at their next command, and any still open after `closeTimeoutMs` are cut.
   */
  close(): Promise<void>;
}

const libraryOptions = (config: ResolvedSmtpInboundOptions, handlers: SessionHandlers): SMTPServerOptions => ({
  // Read once: without a name the library asks the system for it on every connection.
  name: config.name ?? hostname(),
  banner: config.banner,
  size: config.maxMessageBytes,
  maxCommandLength: config.maxCommandLength,
  socketTimeout: config.idleTimeoutMs,
  closeTimeout: config.closeTimeoutMs,
  // An MX takes mail from anyone: no AUTH. Without a certificate, no STARTTLS either
  // (the library's built-in certificate has a published key).
  disabledCommands: config.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
  authOptional: true,
  ...(config.tls ? { key: config.tls.key, cert: config.tls.cert } : {}),
  // PTR names are not used for anything here and would cost a DNS round trip per session.
  disableReverseLookup: true,
  // Our own logger, with our own fields; the library's would log every command line.
  logger: false,
  onConnect: handlers.onConnect,
  onClose: handlers.onClose,
  onMailFrom: handlers.onMailFrom,
  onRcptTo: handlers.onRcptTo,
  onData: handlers.onData,
});

/**
 * Builds the inbound MX on smtp-server: recipients are checked at RCPT through
 * `ingress.checkRecipient`, each message is buffered up to the size cap and handed to
 * `ingress.deliver`, and 250 is sent only once that resolved. Nothing listens until
 * {@link SmtpInbound.listen}.
 */
export const createSmtpInbound = (ingress: MailIngress, options: SmtpInboundOptions = {}): SmtpInbound => {
  const config = resolveOptions(options);
  const sessions = new SessionRegistry(config);
  const handlers = new SessionHandlers(ingress, config, sessions, (): MxServer => server);
  const server: MxServer = new MxServer(libraryOptions(config, handlers), config.greetingDelayMs);
  config.meter.gauge('ephemail_smtp_sessions_open', () => sessions.size);
  // Socket errors of single sessions (a reset mid-message) surface here; they must not crash.
  server.on('error', (err: Error & { code?: string }) => config.logger.warn({ err, code: err.code }, 'smtp: session error'));

  const listen = (port: number, host = '127.0.0.1'): Promise<{ port: number }> =>
    new Promise((resolve, reject) => {
      server.server.once('error', reject);
      server.listen({ port, host }, () => {
        server.server.off('error', reject);
        // Not logged here: the caller learns the port from the answer and logs its start-up once.
        resolve({ port: (server.server.address() as AddressInfo).port });
      });
    });

  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.close(() => {
        sessions.clear();
        resolve();
      });
    });

  return { listen, close };
};
