import type { MailboxCursorStore, MailIngress } from '@ephemail/core';
import type { ImapFlow } from 'imapflow';
import { backoffDelay } from './backoff.js';
import { closeClient, connectClient, createWakeup, pause, type Wakeup } from './imap-session.js';
import { assertMailboxConfig, DEFAULT_FOLDER, describeError, mailboxKey, type MailboxConfig } from './mailbox-config.js';
import { resolvePollerOptions, type ImapPollerOptions, type ResolvedPollerOptions } from './poller-options.js';
import { syncMailbox, type PollReport } from './sync-mailbox.js';

/** Feeds one upstream IMAP folder into the mail pipeline. */
export interface ImapPoller {
  /** The key the folder's cursor is stored under (host, port, user, folder; no secret). */
  readonly mailboxKey: string;
  /**
   * Starts the background session: connect, deliver what is new, then wait with IDLE (or the poll
   * timer) and repeat; after any failure, reconnect with exponential backoff and jitter. Nothing
   * it does throws or rejects into the host. Calling it again while running does nothing.
   */
  start(): void;
  /**
   * Stops the background session: the message in flight is finished and its cursor saved, IDLE
   * ends and the session logs out. Resolves when all of that is done; safe to call at any time.
   */
  stop(): Promise<void>;
  /**
   * One pass on a connection of its own, then logout. Resolves with what it did (a failed delivery
   * is reported in `halted`); rejects when the server or the cursor store fails. Safe beside
   * `start()`: passes of one poller never overlap, and the cursor's compare-and-set guards
   * against pollers in other processes.
   */
  pollOnce(): Promise<PollReport>;
}

interface LoopContext {
  readonly mailbox: MailboxConfig;
  readonly key: string;
  /** The mailbox's label in the metrics. */
  readonly label: string;
  readonly options: ResolvedPollerOptions;
  readonly pass: (client: ImapFlow, signal?: AbortSignal) => Promise<PollReport>;
}

/** Runs tasks one at a time, in call order. */
const createMutex = () => {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
};

const logReport = (ctx: LoopContext, report: PollReport): void => {
  if (report.delivered === 0 && report.skipped === 0 && !report.rescanned) return;
  const { delivered, skipped, refused, lastUid, uidValidity, rescanned } = report;
  ctx.options.logger.info({ mailbox: ctx.key, delivered, skipped, refused, lastUid, uidValidity, rescanned }, 'imap messages delivered');
};

/** IDLE is advertised, or part of an enabled IMAP4rev2 session (RFC 9051 folds it in). */
const usesIdle = (ctx: LoopContext, client: ImapFlow): boolean =>
  ctx.options.idle && (client.capabilities.has('IDLE') || client.enabled.has('IMAP4REV2'));

const waitForNews = (ctx: LoopContext, client: ImapFlow, wakeup: Wakeup): Promise<void> => {
  const idling = usesIdle(ctx, client);
  // IDLE lasts until the next pass's first command ends it; its failures surface as 'close'.
  if (idling && !wakeup.pending) void client.idle().catch(() => undefined);
  return wakeup.wait(idling ? ctx.options.idleRefreshMs : ctx.options.pollIntervalMs);
};

/** Passes over the folder, then waits for news, until stopped (returns) or broken (throws). */
const serve = async (ctx: LoopContext, client: ImapFlow, signal: AbortSignal, healthy: () => void): Promise<void> => {
  const wakeup = createWakeup();
  const notify = (): void => wakeup.notify();
  client.on('exists', notify);
  client.on('close', notify);
  signal.addEventListener('abort', notify);
  try {
    while (!signal.aborted) {
      // Cleared before the pass: mail announced during it wakes the next wait at once.
      wakeup.clear();
      const report = await ctx.pass(client, signal);
      logReport(ctx, report);
      if (report.halted?.reason === 'deliver_failed') {
        throw new Error(`delivery of UID ${report.halted.uid} failed: ${report.halted.error}`);
      }
      healthy();
      if (signal.aborted) return;
      await waitForNews(ctx, client, wakeup);
      if (!client.usable && !signal.aborted) throw new Error('IMAP connection closed');
    }
  } finally {
    client.off('exists', notify);
    client.off('close', notify);
    signal.removeEventListener('abort', notify);
  }
};

const session = async (ctx: LoopContext, signal: AbortSignal, healthy: () => void): Promise<void> => {
  const client = await connectClient(ctx.mailbox, ctx.key, ctx.options.logger, signal);
  ctx.options.logger.info({ mailbox: ctx.key, idle: usesIdle(ctx, client) }, 'imap session started');
  try {
    await serve(ctx, client, signal, healthy);
  } finally {
    await closeClient(client, ctx.options.logoutTimeoutMs);
  }
};

const runLoop = async (ctx: LoopContext, signal: AbortSignal): Promise<void> => {
  let failures = 0;
  while (!signal.aborted) {
    try {
      await session(ctx, signal, () => {
        failures = 0;
      });
    } catch (error) {
      if (signal.aborted) break;
      ctx.options.meter.count('ephemail_imap_errors_total', ctx.label);
      const retryInMs = backoffDelay(failures, ctx.options.backoff);
      failures += 1;
      const fields = { mailbox: ctx.key, attempt: failures, retryInMs, ...describeError(error, ctx.mailbox) };
      ctx.options.logger.warn(fields, 'imap session failed; reconnecting after a pause');
      await pause(retryInMs, signal);
    }
  }
  ctx.options.logger.info({ mailbox: ctx.key }, 'imap session stopped');
};

const passOnItsOwn = async (ctx: LoopContext): Promise<PollReport> => {
  const client = await connectClient(ctx.mailbox, ctx.key, ctx.options.logger);
  try {
    const report = await ctx.pass(client);
    logReport(ctx, report);
    if (report.halted?.reason === 'deliver_failed') ctx.options.meter.count('ephemail_imap_errors_total', ctx.label);
    return report;
  } finally {
    await closeClient(client, ctx.options.logoutTimeoutMs);
  }
};

/** One pass on its own, its failure counted (a session's failures are counted by its loop). */
const countedPass = (ctx: LoopContext): Promise<PollReport> =>
  passOnItsOwn(ctx).catch((error: unknown) => {
    ctx.options.meter.count('ephemail_imap_errors_total', ctx.label);
    throw error;
  });

/**
 * Creates the poller of one upstream mailbox. Each new message (UID above the stored cursor,
 * same UIDVALIDITY) goes to `ingress.deliver` with `transport: 'imap'`, the recipients found in
 * its X-Original-To, Delivered-To, To and Cc headers, and its Return-Path as `mailFrom`; the
 * cursor in `cursors` advances only after `deliver` resolved. Throws at once for an unusable
 * configuration (no credential, both credentials, bad port, bad option).
 */
export const createImapPoller = (
  ingress: MailIngress,
  cursors: MailboxCursorStore,
  mailbox: MailboxConfig,
  options: ImapPollerOptions = {},
): ImapPoller => {
  assertMailboxConfig(mailbox);
  const resolved = resolvePollerOptions(options);
  const key = mailboxKey(mailbox);
  const label = options.metricsLabel ?? `${mailbox.host.toLowerCase()}/${mailbox.folder ?? DEFAULT_FOLDER}`;
  const exclusive = createMutex();
  const ctx: LoopContext = {
    mailbox,
    key,
    label,
    options: resolved,
    pass: (client, signal) =>
      exclusive(() => {
        resolved.meter.count('ephemail_imap_polls_total', label);
        return syncMailbox(client, { ingress, cursors, mailbox, key, label, options: resolved, signal });
      }),
  };
  let running: { readonly controller: AbortController; readonly done: Promise<void> } | undefined;
  return {
    mailboxKey: key,
    start: () => {
      if (running !== undefined) return;
      const controller = new AbortController();
      const done = runLoop(ctx, controller.signal).catch((error: unknown) => {
        resolved.logger.error({ mailbox: key, ...describeError(error, mailbox) }, 'imap poller stopped by an unexpected error');
      });
      running = { controller, done };
    },
    stop: async () => {
      const current = running;
      running = undefined;
      current?.controller.abort();
      await current?.done;
    },
    pollOnce: () => countedPass(ctx),
  };
};
