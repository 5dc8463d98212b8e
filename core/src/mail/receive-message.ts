import type { CoreDeps } from '../deps.js';
import type { IdentityRecord } from '../domain/identity.js';
import { iso } from '../domain/time.js';
import { extract } from '../extraction/extract.js';
import { secretsToMask } from '../extraction/secret-masker.js';
import type { Extraction, ParsedMessage } from '../extraction/types.js';
import type { ExtractionRules } from '../extraction/rules.js';
import { C } from '../store/collections.js';
import type { ExtractionRecord } from './extraction-record.js';
import { toExtractionRecord } from './extraction-record.js';
import type { MessageRecord } from './message-record.js';
import { recorderFor, type Recording } from './identity-recorder.js';
import { derivedNames, orderedNames, type DeliveryNames } from './delivery-names.js';
import { flusherFor } from './outbox-flusher.js';
import { derivedId, digestForStorage, EXTRACTION_BOUNDS, rawSlices, removeRaw, storeRaw, toMessageRecord } from './message-record.js';
import type { StorageDigest } from './body-span.js';
import type { AuthenticationResults, InboundEnvelope } from './ports.js';
import { overlay } from '../store/overlay.js';

export interface ReceiveInput {
  readonly identity: IdentityRecord;
  readonly recipient: string;
  readonly raw: Uint8Array;
  readonly parsed: ParsedMessage;
  readonly envelope: InboundEnvelope;
  readonly authentication: AuthenticationResults | null;
  /** The engine's answer for `parsed` ({@link extractForDelivery}), when the parser ran it already. */
  readonly extraction?: Extraction;
  /** {@link digestForStorage} of `raw` and `parsed`, when the parser derived it already. */
  readonly digest?: StorageDigest;
  /**
   * The most messages the identity may hold: a message past it is refused (`over_quota`) by the
   * atomic update that would record it, so concurrent deliveries cannot overshoot the limit.
   */
  readonly maxMessages?: number;
}

export type ReceiveOutcome =
  | { readonly kind: 'stored'; readonly messageId: string; readonly duplicate: boolean }
  | { readonly kind: 'not_live'; readonly status: IdentityRecord['status'] }
  /** The identity holds its `maxMessages` already; nothing of the message was kept. */
  | { readonly kind: 'over_quota' };

/**
 * Stores one message for one identity and records what it means, so that a crash at any point
 * and a redelivery of the same message (same Message-ID, envelope and bytes) converge on exactly
 * one stored message, one extraction and one set of events.
 *
 * With a store that offers `transact`, all of it is one atomic step per batch of deliveries to the
 * identity (see identity-recorder.ts): the message's documents unless it is stored already, the
 * identity's update and its events' entries in the log. The message record is named after the
 * message; its slices, extraction and events get new time-ordered ids (delivery-names.ts).
 * Otherwise, and when the store refuses that step as planned:
 * 1. raw slices, the message record and the extraction (when the engine reports one) are written
 *    under ids derived from the message, insert-if-absent, all at once;
 * 2. a message already stored by an earlier delivery wins: its record and extraction are used,
 *    and when it was recorded (stored in one step, or its `email.received` is in the log), the
 *    delivery is a duplicate and records nothing;
 * 3. one atomic update of the identity records the message (with the others of this process that
 *    came meanwhile, see identity-recorder.ts): `email.received`,
 *    `extraction.completed`, `identity.activated` on the first mail, guarded by the identity's
 *    recent message ids; then the outbox is flushed (one flush at a time per identity in this
 *    process, see outbox-flusher.ts).
 * Resolves only when all of it is durable; throws when the store failed.
 */
export const receiveMessage = async (deps: CoreDeps, input: ReceiveInput): Promise<ReceiveOutcome> => {
  const { identity, parsed, raw, envelope } = input;
  const digest = input.digest ?? digestForStorage(raw, parsed);
  const messageId = derivedId('msg', identity.id, parsed.messageId ?? '', envelope.mailFrom ?? '', digest.sha256);
  const now = iso(deps.clock.now());
  const found = input.extraction ?? extractForDelivery(parsed, identity.extraction_rules);
  const secrets = secretsToMask(found);
  const documentsNamed = (names: DeliveryNames) => {
    const extraction = toExtractionRecord(found, { id: names.extraction, messageId, sourceEventId: names.receivedEvent, at: now }, identity);
    const record = toMessageRecord({ id: messageId, identity, parsed, raw, digest, envelope, recipient: input.recipient, receivedAt: now, authentication: input.authentication, extractionId: extraction?.id ?? null, rawKey: names.raw, secrets });
    return { record, extraction, names };
  };
  if (deps.store.transact !== undefined) {
    // One step: the documents (unless the message is stored already), the identity and the log.
    const { record, extraction, names } = documentsNamed(orderedNames(deps));
    const documents = [...rawSlices(names.raw!, raw), { collection: C.messages, doc: record }, ...(extraction === undefined ? [] : [{ collection: C.extractions, doc: extraction }])];
    const outcome = await recorderFor(deps)(identity.id, { message: record, extraction, names, documents, maxMessages: input.maxMessages });
    if (outcome.kind === 'not_live' || outcome.kind === 'over_quota') return outcome;
    // Recorded in that step, its events already in the log: there is no outbox to flush.
    if (outcome.kind === 'recorded') return { kind: 'stored', messageId, duplicate: !outcome.inserted && !outcome.written };
    // Refused as planned: store the documents on their own, then record, as a store without it
    // does, under names derived from the message.
  }
  const { record, extraction, names } = documentsNamed(derivedNames(messageId));
  // All three are insert-if-absent under ids derived from the message, so they need no order
  // among themselves: issued together they share one store round trip (one batch in SQLite), and
  // whatever a crash left half-written, the redelivery completes before anything is evented.
  const [, messageInsert, extractionInsert] = await Promise.all([
    storeRaw(deps, messageId, raw),
    deps.store.insert(C.messages, record),
    extraction === undefined ? undefined : deps.store.insert(C.extractions, extraction),
  ]);
  const inserted = messageInsert === 'inserted';
  const stored = inserted ? record : ((await deps.store.get(C.messages, messageId)) as unknown as MessageRecord);
  const storedExtraction = await settleExtraction(deps, stored, extraction, extractionInsert);
  if (!inserted && (await recordedBefore(deps, stored, names))) {
    // The slices this delivery wrote under the derived names are named by no record when the
    // stored one names its own: they go again.
    if (stored.raw_key !== undefined) await removeRaw(deps, { id: messageId, chunks: record.chunks });
    return { kind: 'stored', messageId, duplicate: true };
  }
  const recorded = await recordOnIdentity(deps, identity.id, { message: stored, extraction: storedExtraction, names, maxMessages: input.maxMessages });
  if (recorded.kind === 'recorded') return { kind: 'stored', messageId, duplicate: !inserted && !recorded.written };
  // Refused: what this delivery stored goes again, so no message is kept that its identity never
  // recorded. No other delivery can have recorded it meanwhile: this one stored it first, and a
  // refusal never turns into an acceptance (the count only grows, a status never comes back), so
  // any later recording of it is refused too.
  if (inserted) await removeMessage(deps, record, storedExtraction);
  return recorded;
};

/**
 * What the engine finds in a delivered message. It reads the top of each body
 * (EXTRACTION_BOUNDS): a secret sits near the top of an auth email, and the engine's cost grows
 * with the text it reads. A parser that runs on another thread may run this there (see
 * `ParseOutcome.extraction`), which takes the engine off the thread that serves SMTP and HTTP.
 */
export const extractForDelivery = (parsed: ParsedMessage, rules?: ExtractionRules): Extraction => extract(boundedForExtraction(parsed), rules);

const boundedForExtraction = (parsed: ParsedMessage): ParsedMessage =>
  overlay(parsed, {
    text: parsed.text.slice(0, EXTRACTION_BOUNDS.text),
    html: parsed.html.slice(0, EXTRACTION_BOUNDS.html),
    ...(parsed.htmlText === undefined ? {} : { htmlText: parsed.htmlText.slice(0, EXTRACTION_BOUNDS.text) }),
    ...(parsed.links === undefined ? {} : { links: parsed.links.slice(0, EXTRACTION_BOUNDS.links) }),
  });

/**
 * The extraction the stored message points at. A message stored by an earlier delivery keeps its
 * own: when it points at none or at another (one stored with it in one step is named
 * differently), an extraction this delivery inserted is taken back out, so no extraction exists
 * that its message does not name.
 */
const settleExtraction = async (
  deps: CoreDeps,
  stored: MessageRecord,
  fresh: ExtractionRecord | undefined,
  insert: 'inserted' | 'exists' | undefined,
): Promise<ExtractionRecord | undefined> => {
  if (fresh !== undefined && insert === 'inserted') {
    if (fresh.id === stored.extraction_id) return fresh;
    await deps.store.remove(C.extractions, fresh.id, 1);
  }
  if (stored.extraction_id === null) return undefined;
  return (await deps.store.get(C.extractions, stored.extraction_id)) as ExtractionRecord | undefined;
};

/**
 * Whether a message stored by an earlier delivery was recorded, whatever the identity's recent
 * message ids still hold: it was stored in the step that recorded it (`raw_key`), or its
 * `email.received` event is in the log. One recorded whose events are still in the outbox is
 * among the recent ids, which the recording checks.
 */
const recordedBefore = async (deps: CoreDeps, stored: MessageRecord, names: DeliveryNames): Promise<boolean> =>
  stored.raw_key !== undefined || (await deps.store.get(C.events, names.receivedEvent)) !== undefined;

/**
 * Takes back what a refused delivery stored: the record first, so nothing lists it, then the
 * rest. A record changed since it was stored is not this delivery's to take back; then nothing is.
 */
const removeMessage = async (deps: CoreDeps, record: MessageRecord, extraction: ExtractionRecord | undefined): Promise<void> => {
  if (!(await deps.store.remove(C.messages, record.id, 1))) return;
  await Promise.all([extraction === undefined ? undefined : deps.store.remove(C.extractions, extraction.id), removeRaw(deps, record)]);
};

const recordOnIdentity = async (
  deps: CoreDeps,
  identityId: string,
  recording: Recording,
): Promise<{ kind: 'recorded'; written: boolean } | Exclude<ReceiveOutcome, { kind: 'stored' }>> => {
  const outcome = await recorderFor(deps)(identityId, recording);
  if (outcome.kind === 'not_live' || outcome.kind === 'over_quota') return outcome;
  if (outcome.kind === 'unplanned') throw new Error('a recording without documents cannot be refused');
  if (outcome.written && outcome.doc.pending_events.length > 0) await flusherFor(deps)(identityId, outcome.doc);
  return { kind: 'recorded', written: outcome.written };
};
