import type { CoreDeps } from '../deps.js';
import type { IdentityRecord } from '../domain/identity.js';
import { activate, isLive } from '../domain/identity.js';
import { C } from '../store/collections.js';
import type { NewEntry, PlannedWrite, PlanRead, StoredDocument } from '../ports/document-store.js';
import { keep, updateWithRetry, withoutVersion, write, type Change } from '../store/compare-and-set.js';
import { announceLogged, newEvent, planOutboxLogged, withEvent } from '../store/outbox.js';
import type { ExtractionRecord } from './extraction-record.js';
import { extractionEventData } from './extraction-record.js';
import { typesServed } from './extraction-pick.js';
import { knownSecrets, type MessageRecord } from './message-record.js';
import { derivedNames, type DeliveryNames } from './delivery-names.js';
import { secretMasker } from '../extraction/secret-masker.js';
import { overlay } from '../store/overlay.js';

/** How many recent message ids an identity remembers to make recording idempotent. */
export const RECENT_MESSAGES = 64;

/** A message to record on its identity. */
export interface Recording {
  readonly message: MessageRecord;
  readonly extraction: ExtractionRecord | undefined;
  /** The ids its `email.received` and `extraction.completed` events get. */
  readonly names: Pick<DeliveryNames, 'receivedEvent' | 'extractedEvent'>;
  /**
   * The most messages the identity may hold. A recording that would go past it is refused
   * (`over_quota`) in the same atomic update that would have recorded it, so concurrent
   * deliveries never take an identity over its limit, whatever their prechecks read.
   */
  readonly maxMessages?: number;
  /**
   * The message's documents (raw slices, record, extraction), when they are not stored yet and the
   * store offers `transact`: they are written in the recording's own step, unless the message is
   * stored already, in which case the stored record and its extraction are recorded instead. They
   * are written only with a recording that records the message: a refused one writes nothing.
   */
  readonly documents?: readonly NewEntry[];
}

export type RecordingOutcome =
  /** `inserted`: this recording's documents were written (only with `documents`). */
  | { readonly kind: 'recorded'; readonly written: boolean; readonly inserted: boolean; readonly doc: IdentityRecord }
  | { readonly kind: 'not_live'; readonly status: IdentityRecord['status'] }
  /** The identity holds `maxMessages` already: nothing was recorded or written. */
  | { readonly kind: 'over_quota' }
  /** The step with `documents` was refused: nothing was written; the caller stores them itself. */
  | { readonly kind: 'unplanned' };

/** What a recording came to: recorded (now or before), refused for the quota, or the identity's status. */
type Verdict = 'recorded' | 'over_quota' | IdentityRecord['status'];

/**
 * The identity with one message recorded: `email.received`, `extraction.completed` and, on the
 * first mail, `identity.activated` in its outbox, guarded by its recent message ids. A message
 * recorded already stays recorded (a redelivery), even at the limit. Pure but for the event ids
 * and the clock, like every change given to the store's `update`.
 */
const recordOne = (deps: CoreDeps, current: IdentityRecord, item: Recording): Change<IdentityRecord, Verdict> => {
  const { message, extraction } = item;
  const recent = current.recent_message_ids ?? [];
  if (recent.includes(message.id)) return keep('recorded');
  if (!isLive(current.status)) return keep(current.status);
  if (item.maxMessages !== undefined && (current.message_count ?? 0) >= item.maxMessages) return keep('over_quota');
  let next: IdentityRecord = current;
  const activation = activate(current, deps.clock.now());
  if (activation !== undefined) next = withEvent(activation.record, newEvent(deps, current, activation.event.type, activation.event.data));
  // Event data leaves by webhook and Kafka: neither its subject nor its sender shows a secret (a code in the subject line).
  const mask = secretMasker(knownSecrets(message, extraction) ?? []);
  const received = { message_id: message.id, from: mask(message.from.address), subject: mask(message.subject), size: message.size, received_at: message.received_at };
  next = withEvent(next, newEvent(deps, current, 'email.received', received, item.names.receivedEvent));
  if (extraction !== undefined) next = withEvent(next, newEvent(deps, current, 'extraction.completed', extractionEventData(extraction), item.names.extractedEvent));
  return write(
    overlay(next, {
      message_count: (current.message_count ?? 0) + 1,
      latest_extraction_id: extraction?.id ?? current.latest_extraction_id ?? null,
      latest_extraction_by_type: byType(current, extraction),
      recent_message_ids: [...recent, message.id].slice(-RECENT_MESSAGES),
    }),
    'recorded',
  );
};

/**
 * The identity's per-type pointers with this extraction recorded. An identity that had an
 * extraction before pointers were kept gets none (its reads by type keep falling back to its
 * latest extraction): pointers started then would hide its older secrets.
 */
const byType = (current: IdentityRecord, extraction: ExtractionRecord | undefined): IdentityRecord['latest_extraction_by_type'] => {
  const pointers = current.latest_extraction_by_type ?? ((current.latest_extraction_id ?? null) === null ? {} : undefined);
  if (extraction === undefined || pointers === undefined) return pointers;
  return Object.assign({}, pointers, Object.fromEntries(typesServed(extraction).map((type) => [type, extraction.id])));
};

interface Waiting {
  readonly item: Recording;
  readonly resolve: (outcome: RecordingOutcome) => void;
  readonly reject: (error: unknown) => void;
}

type Decisions = Change<IdentityRecord, Verdict>[];

/** What one pass over a batch decided, and what of the messages' documents it writes. */
interface Decided {
  readonly change: Change<IdentityRecord, Decisions>;
  /** The documents of the messages this pass records anew and the store does not hold yet. */
  readonly inserts: readonly PlannedWrite[];
  /** Per recording: whether its documents are among `inserts`. */
  readonly inserted: readonly boolean[];
}

/** The stored record and extraction of a message, when the store holds it. */
const storedMessage = (read: PlanRead, messageId: string): Pick<Recording, 'message' | 'extraction'> | undefined => {
  const existing = read(C.messages, messageId);
  if (existing === undefined) return undefined;
  const message = withoutVersion<MessageRecord>(existing);
  const extraction = message.extraction_id === null ? undefined : read(C.extractions, message.extraction_id);
  return { message, extraction: extraction === undefined ? undefined : withoutVersion<ExtractionRecord>(extraction) };
};

/**
 * Applies each recording in turn to the identity as the ones before it left it. With `read`
 * (inside a `transact` step), a recording that carries its documents is first resolved against
 * the store: a message stored already (by an earlier delivery, or by a recording before it in the
 * batch) is recorded as stored, with its own extraction and the event ids derived from it, and
 * nothing of it is written again. A stored record with a `raw_key` was written by the step that
 * recorded it, so it is recorded already, even when it has left the identity's recent ids.
 * Otherwise its documents are written, but only when it is recorded: a refused recording (over
 * the quota, an identity no longer live) leaves nothing behind.
 */
const decideAll = (deps: CoreDeps, current: IdentityRecord, batch: readonly Recording[], read?: PlanRead): Decided => {
  const written = new Map<string, Pick<Recording, 'message' | 'extraction'>>();
  const inserts: PlannedWrite[] = [];
  const inserted: boolean[] = [];
  let next: IdentityRecord = current;
  const decisions = batch.map((item) => {
    let resolved = item;
    let fresh = false;
    let recordedWithDocuments = false;
    if (item.documents !== undefined && read !== undefined) {
      const found = written.get(item.message.id) ?? storedMessage(read, item.message.id);
      if (found === undefined) fresh = true;
      else if (found.message.raw_key !== undefined) recordedWithDocuments = true;
      else resolved = overlay(item, { message: found.message, extraction: found.extraction, names: derivedNames(item.message.id) });
    }
    const decision: Change<IdentityRecord, Verdict> = recordedWithDocuments ? keep('recorded') : recordOne(deps, next, resolved);
    const writes = fresh && decision.kind === 'write';
    if (decision.kind === 'write') next = decision.doc;
    if (writes) {
      written.set(item.message.id, { message: item.message, extraction: item.extraction });
      for (const { collection, doc } of item.documents!) inserts.push({ kind: 'insert', collection, doc });
    }
    inserted.push(writes);
    return decision;
  });
  const change: Change<IdentityRecord, Decisions> = decisions.some((decision) => decision.kind === 'write') ? write(next, decisions) : keep(decisions);
  return { change, inserts, inserted };
};

interface Recorded {
  readonly result: Decisions;
  readonly doc: IdentityRecord;
  readonly written: boolean;
  readonly inserted?: readonly boolean[];
}

/**
 * With a store that offers `transact`: the messages' documents, the identity's update and its
 * events' entries in the log, in one atomic step, so the record is written once and never holds
 * the events in its outbox. Answers `'conflict'` when the store refused the step as planned (an
 * event of the outbox was logged meanwhile by a flush of another process, or a crash left some of
 * a message's documents without the others); nothing was written then.
 */
const recordInOneStep = async (deps: CoreDeps, identityId: string, batch: readonly Waiting[]): Promise<Recorded | undefined | 'conflict'> => {
  const outcome = await deps.store.transact!((read) => {
    const stored = read(C.identities, identityId);
    if (stored === undefined) return { writes: [], result: undefined };
    const { change, inserts, inserted } = decideAll(deps, withoutVersion<IdentityRecord>(stored), batch.map(({ item }) => item), read);
    // Nothing recorded anew, so no document to write either.
    if (change.kind === 'keep') {
      return { writes: [], result: { result: change.result, doc: stored as StoredDocument & IdentityRecord, written: false, inserted, logged: [] } };
    }
    const { writes, record, logged } = planOutboxLogged(read, change.doc);
    return {
      writes: [...inserts, ...writes, { kind: 'replace', collection: C.identities, doc: record, expectedVersion: stored.version }],
      result: { result: change.result, doc: overlay(record, { version: stored.version + 1 }), written: true, inserted, logged },
    };
  });
  if (outcome.kind === 'conflict') return 'conflict';
  if (outcome.result === undefined) return undefined;
  const { logged, ...recorded } = outcome.result;
  await announceLogged(deps, logged);
  return recorded;
};

/** Applies each recording in turn to one read of the identity; answers what each decided. */
const recordAll = async (deps: CoreDeps, identityId: string, waiting: readonly Waiting[]): Promise<void> => {
  let batch = waiting;
  let outcome: Recorded | undefined | 'conflict' = deps.store.transact === undefined ? 'conflict' : await recordInOneStep(deps, identityId, batch);
  if (outcome === 'conflict') {
    // Recordings that carry documents go back to their callers, which store them and record again.
    for (const { item, resolve } of batch) if (item.documents !== undefined) resolve({ kind: 'unplanned' });
    batch = batch.filter(({ item }) => item.documents === undefined);
    if (batch.length === 0) return;
    const items = batch.map(({ item }) => item);
    outcome = await updateWithRetry<IdentityRecord, Decisions>(deps.store, C.identities, identityId, (current) => decideAll(deps, current, items).change);
  }
  if (outcome === undefined) throw new Error(`identity ${identityId} vanished while recording a message`);
  const { result, written, doc, inserted } = outcome;
  batch.forEach(({ resolve }, i) => {
    const decision = result[i]!;
    if (decision.result === 'over_quota') return resolve({ kind: 'over_quota' });
    if (decision.result !== 'recorded') return resolve({ kind: 'not_live', status: decision.result });
    resolve({ kind: 'recorded', written: written && decision.kind === 'write', inserted: inserted?.[i] ?? false, doc });
  });
};

/**
 * Records messages on their identities. Recordings of one identity that arrive together are
 * applied together, in arrival order, as one atomic update of one document: each still decides
 * exactly as it would alone (the same change, applied to the identity as the recordings before it
 * left it). Twenty sessions delivering to one identity each paid a read, a JSON round trip and a
 * row write of the identity; a batch pays them once.
 *
 * Without `transact`, the update is a compare-and-set, and one identity has one update under way
 * at a time in this process: recordings that arrive meanwhile wait for it and form the next
 * batch, so that the batches do not race each other's versions. With `transact`, a step reads the
 * identity with nothing written between its read and its writes, so steps never race: a batch
 * starts once the recordings queued in the same run of microtasks are collected, without waiting
 * for the batch before it to commit. Waiting had cost every batch a whole commit (with a
 * group-committing store, a turn of the event loop) before its step, and had kept the sessions
 * that deliver to one identity in step with each other.
 */
const createIdentityRecorder = (deps: CoreDeps) => {
  const queued = new Map<string, Waiting[]>();
  const busy = new Set<string>();
  const record = (identityId: string, batch: readonly Waiting[]): Promise<void> =>
    recordAll(deps, identityId, batch).catch((error: unknown) => batch.forEach(({ reject }) => reject(error)));
  const take = (identityId: string): Waiting[] | undefined => {
    const batch = queued.get(identityId);
    queued.delete(identityId);
    return batch;
  };
  /** One update at a time per identity (compare-and-set). */
  const runInTurn = (identityId: string): void => {
    const batch = take(identityId);
    if (batch === undefined) return void busy.delete(identityId);
    busy.add(identityId);
    void record(identityId, batch).finally(() => runInTurn(identityId));
  };
  const overlapping = deps.store.transact !== undefined;
  return (identityId: string, item: Recording): Promise<RecordingOutcome> =>
    new Promise((resolve, reject) => {
      const waiting = queued.get(identityId);
      if (waiting !== undefined) return void waiting.push({ item, resolve, reject });
      queued.set(identityId, [{ item, resolve, reject }]);
      if (overlapping) queueMicrotask(() => void record(identityId, take(identityId)!));
      else if (!busy.has(identityId)) runInTurn(identityId);
    });
};

const recorders = new WeakMap<CoreDeps, ReturnType<typeof createIdentityRecorder>>();

/** The recorder of one service (its deps), made on first use. */
export const recorderFor = (deps: CoreDeps): ReturnType<typeof createIdentityRecorder> => {
  let recorder = recorders.get(deps);
  if (recorder === undefined) {
    recorder = createIdentityRecorder(deps);
    recorders.set(deps, recorder);
  }
  return recorder;
};
