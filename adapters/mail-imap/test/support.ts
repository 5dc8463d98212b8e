/**
 * Small in-test implementations of the two ports the poller uses (core has its own; these keep
 * the adapter's tests independent of it), a recording logger, mail builders and a Dovecot suite.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import type { DeliveryOutcome, InboundEnvelope, MailboxCursor, MailboxCursorStore, MailIngress } from '@ephemail/core';
import test, { type ExecutionContext } from 'ava';
import type { MailboxConfig, PollerLogger } from '../src/index.js';
import { startDovecot, type Dovecot, type DovecotUser } from './dovecot.js';

/** A cursor store with the port's compare-and-set semantics. */
export const memoryCursorStore = (): MailboxCursorStore => {
  const cursors = new Map<string, MailboxCursor>();
  return {
    load: async (key) => cursors.get(key),
    save: async (key, next, previous) => {
      const current = cursors.get(key);
      const matches = current === undefined ? previous === undefined : previous !== undefined && current.uidValidity === previous.uidValidity && current.lastUid === previous.lastUid;
      if (matches) cursors.set(key, next);
      return matches;
    },
  };
};

export interface Delivery {
  readonly text: string;
  readonly envelope: InboundEnvelope;
  readonly duplicate: boolean;
}

/** Why the pipeline refuses a recipient's copy. */
type Refusal = Extract<DeliveryOutcome, { kind: 'rejected' }>['reason'];

/**
 * An ingress that, like the port's contract, stores each (recipient, Message-ID, MAIL FROM,
 * content) once and reports a redelivery as a duplicate. `fail` makes a delivery throw; `refuse`
 * refuses a recipient's copy, for the reason it answers.
 */
export const recordingIngress = (fail: (text: string) => boolean = () => false, refuse: (recipient: string) => Refusal | undefined = () => undefined) => {
  const deliveries: Delivery[] = [];
  const stored = new Set<string>();
  const events = new EventEmitter();
  const ingress: MailIngress = {
    checkRecipient: async () => ({ kind: 'accept', identityId: 'idn_test' }),
    deliver: async (raw, envelope) => {
      const text = Buffer.from(raw).toString('utf8');
      if (fail(text)) throw new Error('store unavailable');
      const messageId = /^Message-ID:\s*(.*)$/im.exec(text)?.[1] ?? '';
      const hash = createHash('sha256').update(raw).digest('hex');
      let duplicate = false;
      const outcomes: DeliveryOutcome[] = envelope.rcptTo.map((recipient) => {
        const reason = refuse(recipient);
        if (reason !== undefined) return { recipient, kind: 'rejected', reason };
        const key = [recipient.toLowerCase(), messageId, envelope.mailFrom ?? '', hash].join('\n');
        duplicate = stored.has(key);
        stored.add(key);
        return { recipient, kind: 'stored', messageId: key, identityId: `idn_${recipient}`, duplicate };
      });
      deliveries.push({ text, envelope, duplicate });
      events.emit('delivered');
      return outcomes;
    },
  };
  const waitFor = async (count: number): Promise<void> => {
    while (deliveries.length < count) await once(events, 'delivered');
  };
  return { ingress, deliveries, storedCount: () => stored.size, waitFor };
};

export interface LogEntry {
  readonly level: 'info' | 'warn' | 'error';
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

/** A logger that keeps every entry and lets a test wait for warnings. */
export const recordingLogger = () => {
  const entries: LogEntry[] = [];
  const events = new EventEmitter();
  const record =
    (level: LogEntry['level']) =>
    (fields: Record<string, unknown>, message: string): void => {
      entries.push({ level, fields, message });
      events.emit(level);
    };
  const logger: PollerLogger = { info: record('info'), warn: record('warn'), error: record('error') };
  const warnings = (): LogEntry[] => entries.filter((entry) => entry.level === 'warn');
  const waitForWarnings = async (count: number): Promise<void> => {
    while (warnings().length < count) await once(events, 'warn');
  };
  return { logger, entries, warnings, waitForWarnings };
};

/** A message with CRLF line ends and a unique Message-ID. */
export const message = (fields: {
  subject: string;
  to?: string;
  cc?: string;
  deliveredTo?: string;
  xOriginalTo?: string;
  returnPath?: string;
}): string => {
  const lines = [
    fields.returnPath === undefined ? undefined : `Return-Path: ${fields.returnPath}`,
    fields.deliveredTo === undefined ? undefined : `Delivered-To: ${fields.deliveredTo}`,
    fields.xOriginalTo === undefined ? undefined : `X-Original-To: ${fields.xOriginalTo}`,
    'From: Sender <sender@upstream.example>',
    fields.to === undefined ? undefined : `To: ${fields.to}`,
    fields.cc === undefined ? undefined : `Cc: ${fields.cc}`,
    `Subject: ${fields.subject}`,
    `Message-ID: <${randomBytes(8).toString('hex')}@upstream.example>`,
    'Date: Sat, 21 Nov 2026 10:00:00 +0000',
    '',
    `Your code for ${fields.subject} is 482913.`,
    '',
  ];
  return lines.filter((line) => line !== undefined).join('\r\n');
};

/** The poller's view of a Dovecot user's mailbox. */
export const mailboxOf = (server: Dovecot, user: DovecotUser, extra: Partial<MailboxConfig> = {}): MailboxConfig => ({
  host: server.host,
  port: server.port,
  secure: false,
  user: user.user,
  password: user.password,
  ...extra,
});

type DovecotTest = (t: ExecutionContext, server: Dovecot) => Promise<void>;

/**
 * Starts one Dovecot for a test file and returns its test function. When Dovecot cannot run here
 * every test is registered as skipped, its title saying why: never a fake server.
 */
export const dovecotSuite = async (): Promise<{ it: (title: string, run: DovecotTest) => void; server: Dovecot | undefined }> => {
  const started = await startDovecot();
  if (!started.ok) {
    return { it: (title) => test.skip(`${title} (skipped: ${started.reason})`, () => {}), server: undefined };
  }
  test.after.always(() => started.server.stop());
  return { it: (title, run) => test(title, (t) => run(t, started.server)), server: started.server };
};

/** Seeds mail through a separate IMAP connection, closed when the test ends. */
export const seeder = async (t: ExecutionContext, server: Dovecot, user: DovecotUser) => {
  const client = await server.connect(user);
  t.teardown(() => client.logout().catch(() => undefined));
  return client;
};
