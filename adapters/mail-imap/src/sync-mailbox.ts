import type { DeliveryOutcome, MailboxCursor, MailboxCursorStore, MailIngress } from '@ephemail/core';
import type { FetchMessageObject, ImapFlow } from 'imapflow';
import { DEFAULT_FOLDER, describeError, messageSource, type MailboxConfig } from './mailbox-config.js';
import type { ResolvedPollerOptions } from './poller-options.js';
import { routeMessage } from './route-message.js';

/** Why a poll stopped before the end of the folder. */
export type PollHalt =
  /** `ingress.deliver` threw for `uid`; the cursor stays before it, so the next poll retries it. */
  | { readonly reason: 'deliver_failed'; readonly uid: number; readonly error: string }
  /** Another poller of the same mailbox moved the cursor (compare-and-set lost); it carries on. */
  | { readonly reason: 'cursor_moved' }
  /** `stop()` was called; the in-flight message was finished first. */
  | { readonly reason: 'stopped' };

/** What one pass over the folder did. */
export interface PollReport {
  readonly mailboxKey: string;
  /** The folder's UIDVALIDITY during this pass. */
  readonly uidValidity: string;
  /** True when the stored cursor had another UIDVALIDITY, so the folder was read from UID 1. */
  readonly rescanned: boolean;
  /** Messages handed to `ingress.deliver` and acknowledged by it. */
  readonly delivered: number;
  /** Messages passed over because no routing header held an address. */
  readonly skipped: number;
  /**
   * Copies the pipeline refused, one per recipient of a delivered message (an unknown address, an
   * identity squashed, expired or full, a message that does not parse). Each is logged with its
   * UID, recipient and reason: no sender hears of it, as one would over SMTP.
   */
  readonly refused: number;
  /** The cursor's last UID after the pass. */
  readonly lastUid: number;
  readonly halted?: PollHalt;
}

/** What a pass needs besides the connection. */
export interface SyncContext {
  readonly ingress: MailIngress;
  readonly cursors: MailboxCursorStore;
  readonly mailbox: MailboxConfig;
  readonly key: string;
  /** The mailbox's label in the poller's metrics. */
  readonly label: string;
  readonly options: ResolvedPollerOptions;
  /** Checked between messages, never during one. */
  readonly signal?: AbortSignal;
}

interface Progress {
  cursor: MailboxCursor;
  delivered: number;
  skipped: number;
  refused: number;
}

/** UIDs above `lastUid`, ascending. UIDNEXT from EXAMINE spares the search when nothing is new. */
const newUids = async (client: ImapFlow, lastUid: number, uidNext: number | undefined): Promise<number[]> => {
  if (typeof uidNext === 'number' && uidNext <= lastUid + 1) return [];
  const found = await client.search({ uid: `${lastUid + 1}:*` }, { uid: true });
  if (found === false) throw new Error('UID SEARCH failed');
  // `n:*` always matches the highest UID, even one below n, so filter rather than trust the range.
  return found.filter((uid) => uid > lastUid).sort((a, b) => a - b);
};

const deliverOne = async (ctx: SyncContext, progress: Progress, message: FetchMessageObject): Promise<PollHalt | undefined> => {
  const { uid } = message;
  const raw = message.source ?? new Uint8Array();
  const routing = routeMessage(raw, ctx.options.maxRecipients);
  const source = messageSource(ctx.mailbox, uid);
  if (routing.rcptTo.length === 0) {
    ctx.options.logger.warn({ mailbox: ctx.key, uid }, 'imap message has no address in X-Original-To, Delivered-To, To or Cc; skipped');
    progress.skipped += 1;
  } else {
    let outcomes: readonly DeliveryOutcome[];
    try {
      outcomes = await ctx.ingress.deliver(raw, { transport: 'imap', mailFrom: routing.mailFrom, rcptTo: routing.rcptTo, source });
    } catch (error) {
      const described = describeError(error, ctx.mailbox);
      ctx.options.logger.warn({ mailbox: ctx.key, uid, ...described }, 'imap message delivery failed; the cursor stays before it');
      return { reason: 'deliver_failed', uid, error: String(described.error) };
    }
    progress.delivered += 1;
    for (const outcome of outcomes) {
      if (outcome.kind !== 'rejected') continue;
      progress.refused += 1;
      ctx.options.logger.warn({ mailbox: ctx.key, uid, recipient: outcome.recipient, reason: outcome.reason }, 'imap message refused for a recipient; the cursor moves past it');
    }
  }
  const next: MailboxCursor = { uidValidity: progress.cursor.uidValidity, lastUid: uid };
  if (!(await ctx.cursors.save(ctx.key, next, progress.cursor))) return { reason: 'cursor_moved' };
  progress.cursor = next;
  return undefined;
};

const deliverNew = async (client: ImapFlow, ctx: SyncContext, progress: Progress, uidNext: number | undefined): Promise<PollHalt | undefined> => {
  const uids = await newUids(client, progress.cursor.lastUid, uidNext);
  for (let start = 0; start < uids.length; start += ctx.options.batchSize) {
    const batch = uids.slice(start, start + ctx.options.batchSize);
    const messages = await client.fetchAll(batch.join(','), { uid: true, source: true }, { uid: true });
    ctx.options.meter.count('ephemail_imap_messages_fetched_total', ctx.label, messages.length);
    messages.sort((a, b) => a.uid - b.uid);
    for (const message of messages) {
      if (ctx.signal?.aborted) return { reason: 'stopped' };
      if (message.uid <= progress.cursor.lastUid) continue;
      const halted = await deliverOne(ctx, progress, message);
      if (halted !== undefined) return halted;
    }
  }
  return undefined;
};

/**
 * One pass over the folder on a connected client: examine it (read-only, so flags upstream are
 * never touched), reset the cursor when UIDVALIDITY changed, then deliver every message above the
 * cursor in UID order, saving the cursor after each delivery resolved. A crash therefore re-feeds
 * at most the message in flight, which `deliver` recognises as a duplicate. Throws when the
 * connection or the cursor store fails; a failed delivery is reported in `halted` instead.
 */
export const syncMailbox = async (client: ImapFlow, ctx: SyncContext): Promise<PollReport> => {
  const opened = await client.mailboxOpen(ctx.mailbox.folder ?? DEFAULT_FOLDER, { readOnly: true });
  const uidValidity = opened.uidValidity.toString();
  const stored = await ctx.cursors.load(ctx.key);
  const rescanned = stored !== undefined && stored.uidValidity !== uidValidity;
  const progress: Progress = { cursor: stored ?? { uidValidity, lastUid: 0 }, delivered: 0, skipped: 0, refused: 0 };
  const report = (halted?: PollHalt): PollReport => ({
    mailboxKey: ctx.key,
    uidValidity,
    rescanned,
    delivered: progress.delivered,
    skipped: progress.skipped,
    refused: progress.refused,
    lastUid: progress.cursor.lastUid,
    ...(halted === undefined ? {} : { halted }),
  });
  if (stored === undefined || rescanned) {
    // Record the new UIDVALIDITY before any delivery, so the reset itself is compare-and-set.
    const reset: MailboxCursor = { uidValidity, lastUid: 0 };
    if (!(await ctx.cursors.save(ctx.key, reset, stored))) return report({ reason: 'cursor_moved' });
    if (rescanned) ctx.options.logger.info({ mailbox: ctx.key, previous: stored.uidValidity, uidValidity }, 'imap UIDVALIDITY changed; reading the folder from the start');
    progress.cursor = reset;
  }
  return report(await deliverNew(client, ctx, progress, opened.uidNext));
};
