import type { Meter } from '@ephemail/core';
import { noMeter } from '@ephemail/core';
import type { BackoffOptions } from './backoff.js';

/** The logging surface the poller needs; pino's logger satisfies it. Fields never hold secrets. */
export interface PollerLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** How the poller behaves. Every field is optional; the defaults are listed on each. */
export interface ImapPollerOptions {
  /** Wait for new mail with IDLE when the server offers it, else poll. Default `true`. */
  readonly idle?: boolean;
  /** Time between polls when not using IDLE. Default 30 000 ms. */
  readonly pollIntervalMs?: number;
  /**
   * Longest single IDLE before the folder is examined again. Servers and NATs drop connections
   * that stay silent too long (RFC 2177 asks for less than 29 minutes), and re-examining is also
   * how a running session notices a changed UIDVALIDITY. Default 240 000 ms.
   */
  readonly idleRefreshMs?: number;
  /** Reconnect delays after a failure. Default `{ baseMs: 1000, maxMs: 300 000 }`. */
  readonly backoff?: Partial<BackoffOptions>;
  /** Where the poller reports sessions, failures and deliveries. Default: silent. */
  readonly logger?: PollerLogger;
  /** Messages fetched per round trip; bounds memory to this many message sources. Default 50. */
  readonly batchSize?: number;
  /** Recipients taken from one message's headers, at most. Default 100. */
  readonly maxRecipients?: number;
  /** Longest wait for a clean LOGOUT before the socket is closed. Default 5 000 ms. */
  readonly logoutTimeoutMs?: number;
  /** Where the poller counts its passes, the messages it fetched and its errors (`ephemail_imap_*`). Default: counts nothing. */
  readonly meter?: Meter;
  /**
   * The `mailbox` label of those counts: a name the operator gave the mailbox, never an address
   * (the login may be one). Default: the server's host name and the folder, `imap.example.com/INBOX`.
   */
  readonly metricsLabel?: string;
}

/** Options with every default applied. */
export interface ResolvedPollerOptions {
  readonly idle: boolean;
  readonly pollIntervalMs: number;
  readonly idleRefreshMs: number;
  readonly backoff: BackoffOptions;
  readonly logger: PollerLogger;
  readonly batchSize: number;
  readonly maxRecipients: number;
  readonly logoutTimeoutMs: number;
  readonly meter: Meter;
}

const silentLogger: PollerLogger = { info: () => {}, warn: () => {}, error: () => {} };

const positive = (name: string, value: number): number => {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`IMAP poller option ${name} must be a positive number, got ${value}`);
  return value;
};

const positiveInteger = (name: string, value: number): number => {
  if (!Number.isInteger(value)) throw new RangeError(`IMAP poller option ${name} must be an integer, got ${value}`);
  return positive(name, value);
};

/** Applies the defaults and rejects nonsense at construction, not in the middle of a retry loop. */
export const resolvePollerOptions = (options: ImapPollerOptions = {}): ResolvedPollerOptions => {
  const baseMs = positive('backoff.baseMs', options.backoff?.baseMs ?? 1_000);
  const maxMs = positive('backoff.maxMs', options.backoff?.maxMs ?? Math.max(300_000, baseMs));
  if (maxMs < baseMs) throw new RangeError('IMAP poller option backoff.maxMs must not be below backoff.baseMs');
  return {
    idle: options.idle ?? true,
    pollIntervalMs: positive('pollIntervalMs', options.pollIntervalMs ?? 30_000),
    idleRefreshMs: positive('idleRefreshMs', options.idleRefreshMs ?? 240_000),
    backoff: { baseMs, maxMs },
    logger: options.logger ?? silentLogger,
    batchSize: positiveInteger('batchSize', options.batchSize ?? 50),
    maxRecipients: positiveInteger('maxRecipients', options.maxRecipients ?? 100),
    logoutTimeoutMs: positive('logoutTimeoutMs', options.logoutTimeoutMs ?? 5_000),
    meter: options.meter ?? noMeter,
  };
};
