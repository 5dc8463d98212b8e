import { performance } from 'node:perf_hooks';
import type { CoreDeps } from '../deps.js';
import type { IdentityRecord } from '../domain/identity.js';
import { isDue } from '../domain/identity.js';
import type { MessageParser } from '../extraction/message-parser.js';
import type { Extraction, ParsedMessage } from '../extraction/types.js';
import type { ExtractionRules } from '../extraction/rules.js';
import { extractionSeries, parseFailureSeries } from '../metrics/labels.js';
import type { Meter } from '../metrics/meter.js';
import { C } from '../store/collections.js';
import type { DeliveryOutcome, InboundEnvelope, MailIngress, MessageAuthenticator, RecipientVerdict } from './ports.js';
import { extractForDelivery, receiveMessage, type ReceiveOutcome } from './receive-message.js';

export interface MailIngressOptions {
  readonly parser: MessageParser;
  /** SPF/DKIM/DMARC checks; without one, messages are stored with `authentication: null`. */
  readonly authenticator?: MessageAuthenticator;
  /**
   * Messages one identity may hold. RCPT answers "mailbox full" at the limit, and the recording of
   * a message past it is refused atomically, so concurrent deliveries never overshoot it (the
   * message is then answered "mailbox full" too, and nothing of it is kept). Default 1000.
   */
  readonly maxMessagesPerIdentity?: number;
  /**
   * How long (ms) an identity read for a recipient check answers the checks after it, unless
   * this process hears of a change to the identity first. Default {@link PRECHECK_FRESH_MS}; 0
   * reads it for every check (callers who ask while a read is under way still share it).
   */
  readonly precheckFreshMs?: number;
}

/** Addresses compare case-insensitively; we never rewrite local parts otherwise. */
const normalise = (address: string): string => address.trim().replace(/^<|>$/g, '').toLowerCase();

/** How many address → identity bindings one ingress remembers. */
const KNOWN_ADDRESSES = 10_000;

/**
 * How long (ms) an identity read for a precheck answers the prechecks that follow it in this
 * process. Twenty sessions delivering to one identity each read it at RCPT; on SQLite each read
 * also re-reads pages that the last commit made stale, about 22 µs of the thread that serves
 * SMTP per message. Bounded by this and dropped at once when this process hears of a change to
 * the identity, so only a change made by another process in the last few milliseconds can be
 * missed, and the recording refuses what that would let through. Between two commits of a
 * busy identity's messages, the sessions delivering to it share one read.
 */
export const PRECHECK_FRESH_MS = 20;

/**
 * Finds the identity an address belongs to. An address is bound to its identity once, when the
 * identity is created, and never rebound, so the binding is remembered in-process (a fact, not
 * state: two hosts cannot disagree on it). The identity record is read again once the last read
 * is {@link PRECHECK_FRESH_MS} old, or at once after this process heard of an event of the
 * identity (a message recorded, by this thread or a delivery thread; a squash, an expiry, an
 * extension); callers who ask meanwhile, or while the read is under way, share its answer. The
 * answer is a precheck either way (it may change right after it was read); what decides is the
 * atomic update that records the message.
 */
const identityFinder = (deps: CoreDeps, freshMs: number) => {
  const known = new Map<string, string>();
  const reads = new Map<string, Promise<IdentityRecord | undefined>>();
  deps.hub.subscribe((event) => void reads.delete(event.identity_id));
  const read = (identityId: string): Promise<IdentityRecord | undefined> => {
    const shared = reads.get(identityId);
    if (shared !== undefined) return shared;
    const fresh = deps.store.get(C.identities, identityId) as Promise<IdentityRecord | undefined>;
    reads.set(identityId, fresh);
    // Only this read's own entry goes: an event may have dropped it and a newer read taken its place.
    const forget = (): void => void (reads.get(identityId) === fresh && reads.delete(identityId));
    // A timer, not the clock port: how long an answer is reused is no business of the
    // service's clock, which tests may stop.
    fresh.then(() => (freshMs > 0 ? void setTimeout(forget, freshMs).unref() : forget()), forget);
    return fresh;
  };
  const identityIdOf = async (email: string): Promise<string | undefined> => {
    const cached = known.get(email);
    if (cached !== undefined) return cached;
    const entry = await deps.store.get(C.addresses, email);
    if (entry === undefined || typeof entry.identity_id !== 'string') return undefined;
    if (known.size >= KNOWN_ADDRESSES) known.delete(known.keys().next().value as string);
    known.set(email, entry.identity_id);
    return entry.identity_id;
  };
  return async (address: string): Promise<IdentityRecord | undefined> => {
    const email = normalise(address);
    // Any domain: an identity on a custom domain (or on one removed since, until the identity
    // ends) has its address recorded like one on the inbox domain.
    if (!email.includes('@')) return undefined;
    const identityId = await identityIdOf(email);
    return identityId === undefined ? undefined : read(identityId);
  };
};

/** Whether the identity exists and is live: a delivery's precheck (the limit is the recording's to judge). */
const liveVerdict = (deps: CoreDeps, identity: IdentityRecord | undefined): RecipientVerdict => {
  if (identity === undefined) return { kind: 'unknown' };
  if (identity.status === 'squashed') return { kind: 'squashed' };
  if (identity.status === 'expired' || isDue(identity, deps.clock.now())) return { kind: 'expired' };
  return { kind: 'accept', identityId: identity.id };
};

/** RCPT's verdict: live, and with room for another message. */
const verdictFor = (deps: CoreDeps, identity: IdentityRecord | undefined, maxMessages: number): RecipientVerdict => {
  const live = liveVerdict(deps, identity);
  return live.kind === 'accept' && (identity?.message_count ?? 0) >= maxMessages ? { kind: 'over_quota' } : live;
};

/** What a transport hears of one recipient's copy. */
const outcomeOf = (recipient: string, identityId: string, result: ReceiveOutcome): DeliveryOutcome => {
  switch (result.kind) {
    case 'stored':
      return { recipient, kind: 'stored', messageId: result.messageId, identityId, duplicate: result.duplicate };
    case 'over_quota':
      return { recipient, kind: 'rejected', reason: 'over_quota' };
    case 'not_live':
      return { recipient, kind: 'rejected', reason: result.status === 'squashed' ? 'squashed' : 'expired' };
  }
};

/**
 * The engine's answer for a delivered message, timed. With `performance`, not the Clock port: a
 * duration measured for a metric is not the service's time, which tests may stop.
 */
const timedExtraction = (meter: Meter, message: ParsedMessage, rules?: ExtractionRules): Extraction => {
  const started = performance.now();
  const extraction = extractForDelivery(message, rules);
  meter.observe('ephemail_extraction_duration_seconds', (performance.now() - started) / 1000);
  return extraction;
};

/**
 * Core's side of every mail transport: recipient checks at RCPT and the delivery pipeline.
 * The message is parsed and authenticated once, then stored for each accepted recipient.
 */
export const createMailIngress = (deps: CoreDeps, options: MailIngressOptions): MailIngress => {
  const maxMessages = options.maxMessagesPerIdentity ?? 1000;
  const freshMs = options.precheckFreshMs ?? PRECHECK_FRESH_MS;
  if (!Number.isFinite(freshMs) || freshMs < 0) throw new RangeError('mail ingress: precheckFreshMs must be a finite number of ms, 0 or more');
  const lookup = identityFinder(deps, freshMs);
  const checkRecipient = async (address: string) => verdictFor(deps, await lookup(address), maxMessages);
  const deliver = async (raw: Uint8Array, envelope: InboundEnvelope): Promise<readonly DeliveryOutcome[]> => {
    const recipients = [...new Set(envelope.rcptTo.map(normalise))];
    // The identities are read while the message is parsed: with a group-committing store a read
    // answers only at the end of its turn, and that turn would otherwise follow the parse.
    const identities = recipients.map((recipient) => lookup(recipient));
    // Settled even when the parse fails or throws, so a failed read is never left unhandled.
    for (const identity of identities) identity.catch(() => undefined);
    const parsed = await options.parser.parse(raw);
    if (!parsed.ok) {
      deps.meter.count('ephemail_parse_failures_total', parseFailureSeries(parsed.error));
      // Running out of parse time is about load, not about the message: fail temporarily (the
      // sender retries, SMTP 451) rather than refuse mail that would parse on a quieter machine.
      if (parsed.error._tag === 'ParseBudgetExceeded') throw new Error(`parse budget exceeded: ${parsed.error.elapsedMs} ms`);
      return recipients.map((recipient) => ({ recipient, kind: 'rejected', reason: 'unparseable' }));
    }
    const authentication = options.authenticator
      ? await options.authenticator.authenticate(raw, { mailFrom: envelope.mailFrom, remoteAddress: envelope.remoteAddress, heloName: envelope.heloName })
      : null;
    const outcomes: DeliveryOutcome[] = [];
    // Run (unless the parser ran it) and counted once per message, at its first live recipient:
    // the engine reads the message alone, so every copy gets the same answer.
    let extraction: Extraction | undefined;
    for (const [i, recipient] of recipients.entries()) {
      const identity = await identities[i]!;
      // The limit is the recording's to judge: it refuses atomically, and it still recognises a
      // redelivery of a message the identity holds (an IMAP re-scan at the limit).
      const verdict = liveVerdict(deps, identity);
      if (verdict.kind !== 'accept' || identity === undefined) {
        outcomes.push({ recipient, kind: 'rejected', reason: verdict.kind === 'accept' ? 'unknown' : verdict.kind });
        continue;
      }
      // An identity with a template's rules gets the engine's answer under its own rules.
      const ruled = identity.extraction_rules === undefined ? undefined : timedExtraction(deps.meter, parsed.message, identity.extraction_rules);
      if (extraction === undefined && ruled === undefined) {
        extraction = parsed.extraction ?? timedExtraction(deps.meter, parsed.message);
        deps.meter.count('ephemail_extractions_total', extractionSeries(extraction));
      }
      if (ruled !== undefined) deps.meter.count('ephemail_extractions_total', extractionSeries(ruled));
      const result = await receiveMessage(deps, { identity, recipient, raw, parsed: parsed.message, envelope, authentication, maxMessages, extraction: ruled ?? extraction!, ...(parsed.digest === undefined ? {} : { digest: parsed.digest }) });
      outcomes.push(outcomeOf(recipient, identity.id, result));
    }
    return outcomes;
  };
  return { checkRecipient, deliver };
};
