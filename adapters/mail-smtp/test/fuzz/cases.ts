import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { DeliveryOutcome, InboundEnvelope, MailIngress, RecipientVerdict } from '@ephemail/core';
import { buildBody, longestLine, type MessageKind } from './bodies.js';

/** Limits of the server under fuzz: small, so every limit is hit often. */
export const FUZZ_LIMITS = { maxMessageBytes: 256 * 1024, maxLineLength: 10_000, maxRecipients: 2, idleTimeoutMs: 30_000 } as const;

/**
 * Stalled clients go to a second server with a short idle timeout. Not the main one: smtp-server
 * unstuffs one leading dot per event-loop turn and its idle timer runs meanwhile, so under
 * load a dot-heavy message already received in full could meet a short timeout.
 */
export const STALL_IDLE_MS = 1_500;

const KINDS: readonly MessageKind[] = ['random', 'deep-mime', 'many-parts', 'huge-header', 'many-headers', 'broken-encoding', 'bare-lf', 'nul', 'dots'];
const LOCALS = ['ok1', 'ok2', 'ok3', 'OK1', 'nobody', 'full', 'gone', 'boom'] as const;

export type SendMode = 'plain' | 'chunked' | 'pipelined' | 'slow';
export type MessageCase = { readonly type: 'message'; readonly kind: MessageKind; readonly seed: number; readonly size: number; readonly rcpts: readonly string[]; readonly mode: SendMode };
export type GarbageCase = { readonly type: 'garbage'; readonly seed: number; readonly lines: number; readonly bareLf: boolean };
export type AbortCase = { readonly type: 'abort'; readonly kind: MessageKind; readonly seed: number; readonly size: number; readonly cut: number; readonly reset: boolean };
export type StallCase = { readonly type: 'stall'; readonly seed: number };
export type FuzzCase = (MessageCase | GarbageCase | AbortCase | StallCase) & { readonly id: number };

const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const kind = fc.constantFrom(...KINDS);
const rcpts = fc.array(fc.constantFrom(...LOCALS), { minLength: 1, maxLength: 4 }).map((locals) => locals.map((local) => `${local}@inbox.test`));
const mode = fc.oneof(
  { weight: 40, arbitrary: fc.constant<SendMode>('plain') },
  { weight: 30, arbitrary: fc.constant<SendMode>('chunked') },
  { weight: 20, arbitrary: fc.constant<SendMode>('pipelined') },
  { weight: 1, arbitrary: fc.constant<SendMode>('slow') },
);
const message = fc.record({ type: fc.constant('message' as const), kind, seed, size: fc.nat(100_000), rcpts, mode });
const oversized = fc.record({ type: fc.constant('message' as const), kind: fc.constant<MessageKind>('oversized'), seed,
  size: fc.integer({ min: FUZZ_LIMITS.maxMessageBytes - 200, max: 3 * FUZZ_LIMITS.maxMessageBytes }), rcpts, mode: fc.constantFrom<SendMode>('plain', 'chunked') });
const garbage = fc.record({ type: fc.constant('garbage' as const), seed, lines: fc.integer({ min: 1, max: 40 }), bareLf: fc.boolean() });
const abort = fc.record({ type: fc.constant('abort' as const), kind, seed, size: fc.nat(50_000), cut: fc.double({ min: 0, max: 1, noNaN: true }), reset: fc.boolean() });
const stall = fc.record({ type: fc.constant('stall' as const), seed });

/** `count` cases, the same ones for the same seed. */
export const sampleCases = (count: number, runSeed: number): FuzzCase[] =>
  fc.sample(fc.oneof(
    { weight: 700, arbitrary: message }, { weight: 15, arbitrary: oversized }, { weight: 180, arbitrary: garbage },
    { weight: 100, arbitrary: abort }, { weight: 1, arbitrary: stall },
  ), { numRuns: count, seed: runSeed }).map((c, id) => ({ ...c, id }));

/** What the in-test ingress says about a recipient, by local part. */
export const verdictOf = (address: string): RecipientVerdict['kind'] | 'throw' => {
  const local = address.slice(0, address.indexOf('@')).toLowerCase();
  if (local.startsWith('ok')) return 'accept';
  return ({ nobody: 'unknown', full: 'over_quota', gone: 'expired' } as const)[local as 'nobody'] ?? 'throw';
};

const RCPT_CODES = { accept: 250, unknown: 550, over_quota: 452, expired: 550, squashed: 550, throw: 451 } as const;

/** The replies a correct MX gives to a message case, and what deliver should have seen. */
export interface Expected {
  readonly rcptCodes: readonly number[];
  readonly accepted: readonly string[];
  /** 503 when no recipient was accepted, else the final reply to the message. */
  readonly code: number;
  readonly delivered: boolean;
}

export const expectedFor = (c: MessageCase & { id: number }, body: Buffer): Expected => {
  const accepted: string[] = [];
  const rcptCodes = c.rcpts.map((rcpt) => {
    const listed = accepted.findIndex((a) => a.toLowerCase() === rcpt.toLowerCase());
    if (accepted.length >= FUZZ_LIMITS.maxRecipients && listed === -1) return 452;
    const verdict = verdictOf(rcpt);
    // smtp-server keeps one entry per address, the latest spelling of it.
    if (verdict === 'accept') accepted.splice(listed === -1 ? accepted.length : listed, listed === -1 ? 0 : 1, rcpt);
    return RCPT_CODES[verdict];
  });
  const content = body.length + 2;
  if (accepted.length === 0) return { rcptCodes, accepted, code: 503, delivered: false };
  if (content > FUZZ_LIMITS.maxMessageBytes || longestLine(Buffer.concat([body, Buffer.from('\r\n')])) > FUZZ_LIMITS.maxLineLength) {
    return { rcptCodes, accepted, code: 552, delivered: false };
  }
  return { rcptCodes, accepted, code: ({ 7: 451, 8: 554 } as Record<number, number>)[c.id % 10] ?? 250, delivered: true };
};

export const bodyOf = (c: MessageCase | AbortCase, id: number): Buffer => buildBody(id, c.kind, c.seed, c.size);

export const digest = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/**
 * The fuzz run's ingress: decides by the case id in the first line (…7 throws, …8 is
 * unparseable, the rest are stored) and keeps only a digest of what it got, so its own
 * memory does not hide the server's.
 */
export class FuzzIngress implements MailIngress {
  readonly seen = new Map<number, { readonly digest: string; readonly rcptTo: readonly string[] }>();
  unlabelled = 0;

  async checkRecipient(address: string): Promise<RecipientVerdict> {
    const verdict = verdictOf(address);
    if (verdict === 'throw') throw new Error('recipient store unavailable');
    return verdict === 'accept' ? { kind: verdict, identityId: 'idn_fuzz' } : { kind: verdict };
  }

  async deliver(raw: Uint8Array, envelope: InboundEnvelope): Promise<readonly DeliveryOutcome[]> {
    const match = /^X-Fuzz-Id: (\d+)\r\n/.exec(Buffer.from(raw.subarray(0, 40)).toString('latin1'));
    if (!match) this.unlabelled++;
    const id = Number(match?.[1] ?? -1);
    this.seen.set(id, { digest: digest(raw), rcptTo: envelope.rcptTo });
    if (id % 10 === 7) throw new Error('store failed');
    const reason = id % 10 === 8 ? 'unparseable' : undefined;
    return envelope.rcptTo.map((recipient) =>
      reason ? { recipient, kind: 'rejected', reason } : { recipient, kind: 'stored', messageId: `m${id}`, identityId: 'idn_fuzz', duplicate: false });
  }
}
