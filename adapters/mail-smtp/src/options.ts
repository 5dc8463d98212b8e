import type { Meter } from '@ephemail/core';
import { noMeter } from '@ephemail/core';
import type { SmtpLogger } from './logger.js';
import { silentLogger } from './logger.js';

/** Key and certificate (PEM) that enable STARTTLS. */
export interface SmtpTlsOptions {
  readonly key: string | Buffer;
  readonly cert: string | Buffer;
}

/** Options of {@link createSmtpInbound}. Every limit has a default; see the adapter's README. */
export interface SmtpInboundOptions {
  /** Host name in the greeting and EHLO reply. Default: the machine's host name. */
  readonly name?: string;
  /** Text after `ESMTP` in the greeting. Default `ephemail`. */
  readonly banner?: string;
  /** Largest message accepted, in bytes, counted while streaming. Default 25 MiB. */
  readonly maxMessageBytes?: number;
  /** Recipients per message; more get `452 4.5.3`. Default 100. */
  readonly maxRecipients?: number;
  /** Longest line of message data, in bytes without the line ending. Default 10,000. */
  readonly maxLineLength?: number;
  /** Longest command line; a longer one closes the session with 421. Default 2,048. */
  readonly maxCommandLength?: number;
  /** Sessions open at once on this server. Default 500. */
  readonly maxConnections?: number;
  /** Sessions open at once from one client: an IPv4 address, or an IPv6 /64. Default 50. */
  readonly maxConnectionsPerIp?: number;
  /**
   * Sessions open at once from one network: an IPv4 /24, or an IPv6 /48. Default half of
   * `maxConnections` (at least 1), so one network holding many addresses cannot take every slot.
   */
  readonly maxConnectionsPerNetwork?: number;
  /** Silence from the client (between commands or mid-DATA) before 421 and close. Default 300,000 ms. */
  readonly idleTimeoutMs?: number;
  /** Lifetime of one session however busy, before 421 and close. Default 600,000 ms. */
  readonly sessionTimeoutMs?: number;
  /** Messages per session; the next `MAIL` gets 421 and the client reconnects. Default unlimited. */
  readonly maxMessagesPerConnection?: number;
  /** Wait before the 220 greeting; a client talking earlier gets 421. Default 0 (see ADR 0005). */
  readonly greetingDelayMs?: number;
  /** On `close()`, how long open sessions may finish before they are cut. Default 30,000 ms. */
  readonly closeTimeoutMs?: number;
  /** Offer STARTTLS with this key and certificate. Default: no STARTTLS. */
  readonly tls?: SmtpTlsOptions;
  /** Default: logs nothing. */
  readonly logger?: SmtpLogger;
  /**
   * Where the MX counts what it does: sessions open, answers by outcome, bytes received, the time
   * from the end of DATA until the message was stored (`ephemail_smtp_*`). Default: counts nothing.
   */
  readonly meter?: Meter;
}

/** The options with every default filled in. */
export type ResolvedSmtpInboundOptions = Required<Omit<SmtpInboundOptions, 'name' | 'tls'>> &
  Pick<SmtpInboundOptions, 'name' | 'tls'>;

/**
 * Defaults of {@link SmtpInboundOptions}, exported so the host and the README agree.
 * `maxConnectionsPerNetwork` is not here: it follows `maxConnections` (see {@link networkShare}).
 */
export const SMTP_INBOUND_DEFAULTS = {
  banner: 'ephemail',
  maxMessageBytes: 25 * 1024 * 1024,
  maxRecipients: 100,
  maxLineLength: 10_000,
  maxCommandLength: 2_048,
  maxConnections: 500,
  maxConnectionsPerIp: 50,
  idleTimeoutMs: 300_000,
  sessionTimeoutMs: 600_000,
  maxMessagesPerConnection: Number.POSITIVE_INFINITY,
  greetingDelayMs: 0,
  closeTimeoutMs: 30_000,
} as const;

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The default of `maxConnectionsPerNetwork`: half of the server's sessions, so at least as many
 * stay free for every other network as one network can hold.
 */
const networkShare = (maxConnections: number): number => Math.max(1, Math.floor(maxConnections / 2));

const requirePositive = (name: string, value: number): void => {
  const whole = Number.isInteger(value) || value === Number.POSITIVE_INFINITY;
  if (!whole || value <= 0) throw new RangeError(`mail-smtp: ${name} must be a positive integer, got ${value}`);
};

/** Fills in defaults and refuses nonsense (a zero or negative limit) at start-up, not mid-session. */
export const resolveOptions = (options: SmtpInboundOptions): ResolvedSmtpInboundOptions => {
  const given = withoutUndefined(options);
  const maxConnections = given.maxConnections ?? SMTP_INBOUND_DEFAULTS.maxConnections;
  const merged = { ...SMTP_INBOUND_DEFAULTS, maxConnectionsPerNetwork: networkShare(maxConnections), logger: silentLogger, meter: noMeter, ...given };
  const limits = [
    'maxMessageBytes', 'maxRecipients', 'maxLineLength', 'maxCommandLength', 'maxConnections', 'maxConnectionsPerIp',
    'maxConnectionsPerNetwork', 'idleTimeoutMs', 'sessionTimeoutMs', 'maxMessagesPerConnection', 'closeTimeoutMs',
  ] as const;
  for (const key of limits) requirePositive(key, merged[key]);
  for (const key of ['idleTimeoutMs', 'sessionTimeoutMs', 'closeTimeoutMs'] as const) {
    // Node turns a delay it cannot represent into 1 ms, which would close every session at once.
    if (merged[key] > MAX_TIMER_MS) throw new RangeError(`mail-smtp: ${key} must be at most ${MAX_TIMER_MS}, got ${merged[key]}`);
  }
  if (!Number.isInteger(merged.greetingDelayMs) || merged.greetingDelayMs < 0) {
    throw new RangeError(`mail-smtp: greetingDelayMs must be an integer >= 0, got ${merged.greetingDelayMs}`);
  }
  return merged;
};

// `{ maxRecipients: undefined }` from a config reader means "use the default", not "no limit".
const withoutUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
