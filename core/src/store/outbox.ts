import * as E from 'fp-ts/lib/Either.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { identityNotFound } from '../domain/errors.js';
import type { EventRecord } from '../domain/event.js';
import type { IdentityRecord, Transition } from '../domain/identity.js';
import { iso } from '../domain/time.js';
import type { NewEntry, PlannedWrite, PlanRead } from '../ports/document-store.js';
import { C } from './collections.js';
import { keep, updateWithRetry, write } from './compare-and-set.js';
import { nextLogPositions, planLogPositions } from './log-position.js';
import { releaseIdentities } from './quota.js';
import { overlay } from './overlay.js';

/** A new event for an identity, stamped now, under `id` when the caller named it already. */
export const newEvent = (
  deps: CoreDeps,
  record: Pick<IdentityRecord, 'id' | 'org_id' | 'project_id'>,
  type: string,
  data: Readonly<Record<string, unknown>>,
  id: string = deps.ids.next('evt'),
): Omit<EventRecord, 'seq'> => ({
  id,
  type,
  identity_id: record.id,
  org_id: record.org_id,
  project_id: record.project_id,
  occurred_at: iso(deps.clock.now()),
  // Every event's data names its identity (a webhook receiver has only the data and the type).
  data: data.identity_id === record.id ? data : { identity_id: record.id, ...data },
});

/** The record with the event appended to its outbox, numbered after the identity's last event. */
export const withEvent = (record: IdentityRecord, event: Omit<EventRecord, 'seq'>): IdentityRecord =>
  overlay(record, {
    pending_events: [...record.pending_events, overlay(event, { seq: record.event_count + 1 })],
    event_count: record.event_count + 1,
    has_pending: true,
  });

/**
 * Writes new identities with their pending events already in the log, as one atomic step of a
 * store that offers `insertAll`: each record without an outbox, the events at consecutive
 * positions from `firstPosition` on, in the records' order, and `beside` (documents that belong
 * with them, such as their addresses). Saves the outbox's round trip (the events' insert after
 * the record's, then a second write of the record to empty its outbox). Answers the records as
 * stored, or `'exists'` when an id was taken and nothing was written.
 */
export const insertWithLoggedEvents = async (
  deps: CoreDeps,
  records: readonly IdentityRecord[],
  firstPosition: number,
  beside: readonly NewEntry[] = [],
): Promise<IdentityRecord[] | 'exists'> => {
  const stored = records.map((record): IdentityRecord => overlay(record, { pending_events: [], has_pending: false }));
  const entries: NewEntry[] = [...beside, ...stored.map((doc) => ({ collection: C.identities, doc }))];
  let position = firstPosition;
  for (const record of records) {
    for (const event of record.pending_events) {
      const logged: EventRecord = overlay(event, { position: position++ });
      entries.push({ collection: C.events, doc: logged });
    }
  }
  if ((await deps.store.insertAll!(entries)) !== 'inserted') return 'exists';
  for (const record of records) for (const event of record.pending_events) deps.hub.publish(event);
  return stored;
};

/** The type of a log row that only fills a position (see flushOutbox); relays skip it. */
export const LOG_GAP = 'log.gap';

const logGap = (position: number, deps: CoreDeps) => ({
  id: `gap_${position}`,
  type: LOG_GAP,
  identity_id: '',
  seq: 0,
  position,
  org_id: '',
  project_id: '',
  occurred_at: iso(deps.clock.now()),
  data: {},
});

/** Events whose log entry frees a place in the organization's identity quota. */
const RELEASES_QUOTA = new Set(['identity.squashed', 'identity.expired']);

/**
 * Copies an identity's pending events to the event log, then removes them from the outbox.
 * `written` is the record as its caller just stored it, when it has one (with its `version`,
 * when known).
 * Safe to run any number of times, from any process: the log insert is insert-if-absent by event
 * id, and only the process whose insert created the entry releases quota and wakes listeners.
 */
export const flushOutbox = async (deps: CoreDeps, identityId: string, written?: IdentityRecord): Promise<void> => {
  // A caller that has just written the identity passes what it wrote and saves a read; if another
  // flusher got there first, its inserts answer 'exists' and only gap rows are added.
  const record = written ?? ((await deps.store.get(C.identities, identityId)) as IdentityRecord | undefined);
  if (record === undefined || record.pending_events.length === 0) return;
  const first = await nextLogPositions(deps, record.pending_events.length);
  const logged = record.pending_events.map((event, index) => ({ event, position: first + index }));
  // Issued together, so a group-committing store writes them in one commit: positions, not the
  // order of the inserts, order the log, and relays wait for a position that is not there yet.
  const outcomes = await Promise.all(logged.map(({ event, position }) => deps.store.insert(C.events, overlay(event, { position }))));
  // Another flusher logged an event first: mark the position we took, so relays reading the log
  // in position order see no hole to wait for.
  await Promise.all(logged.map(({ position }, i) => (outcomes[i] === 'exists' ? deps.store.insert(C.events, logGap(position, deps)) : undefined)));
  await announceLogged(
    deps,
    logged.filter((_, i) => outcomes[i] === 'inserted').map(({ event }) => event),
  );
  const flushed = new Set(logged.map(({ event }) => event.id));
  const cleared = (current: IdentityRecord): IdentityRecord | undefined => {
    const rest = current.pending_events.filter((event) => !flushed.has(event.id));
    return rest.length === current.pending_events.length ? undefined : overlay(current, { pending_events: rest, has_pending: rest.length > 0 });
  };
  // The record as written, with its version: a compare-and-set on that version clears the outbox
  // without reading the identity again. Anything written since makes it fail, and the read below runs.
  const version = (record as { version?: unknown }).version;
  if (typeof version === 'number') {
    const { version: _version, ...stored } = record as IdentityRecord & { version: number };
    const next = cleared(stored);
    if (next === undefined || (await deps.store.replace(C.identities, next, version))) return;
  }
  await updateWithRetry<IdentityRecord, void>(deps.store, C.identities, identityId, (current) => {
    const next = cleared(current);
    return next === undefined ? keep(undefined) : write(next, undefined);
  });
};

/**
 * What happens once events are in the log, for the process that logged them: quota freed by
 * the events that free it, and listeners woken.
 */
export const announceLogged = async (deps: CoreDeps, events: readonly EventRecord[]): Promise<void> => {
  for (const event of events) {
    if (RELEASES_QUOTA.has(event.type)) await releaseIdentities(deps, event.org_id, 1);
    deps.hub.publish(event);
  }
};

/**
 * Inside a `transact` plan: the writes that log every event pending in `record` at the next
 * positions of the log (in outbox order, so in the identity's history order), and the record
 * with its outbox emptied, for the plan to write in the same step. The record's own write is the
 * caller's. Answers no writes when nothing is pending.
 */
export const planOutboxLogged = (
  read: PlanRead,
  record: IdentityRecord,
): { readonly writes: PlannedWrite[]; readonly record: IdentityRecord; readonly logged: readonly EventRecord[] } => {
  if (record.pending_events.length === 0) return { writes: [], record, logged: [] };
  const positions = planLogPositions(read, record.pending_events.length);
  const logged = record.pending_events.map((event, index): EventRecord => overlay(event, { position: positions.first + index }));
  return {
    writes: [positions.write, ...logged.map((doc): PlannedWrite => ({ kind: 'insert', collection: C.events, doc }))],
    record: overlay(record, { pending_events: [], has_pending: false }),
    logged,
  };
};

/**
 * How old an outbox's oldest event must be before the sweep takes it over. Younger ones belong to
 * a write in progress, whose own flush follows within milliseconds: flushing them too only raced
 * that flush, and each race cost a log position spent on a gap row.
 */
export const OUTBOX_SWEEP_GRACE_MS = 5_000;

/** Flushes the outboxes a crash left behind; answers how many identities it flushed. */
export const sweepOutboxes = async (deps: CoreDeps, limit = 500, graceMs = OUTBOX_SWEEP_GRACE_MS): Promise<number> => {
  const pending = (await deps.store.find(C.identities, { where: { has_pending: true }, limit })) as unknown as IdentityRecord[];
  const before = iso(new Date(deps.clock.now().getTime() - graceMs));
  const stale = pending.filter((doc) => (doc.pending_events[0]?.occurred_at ?? '') <= before);
  for (const doc of stale) await flushOutbox(deps, doc.id, doc);
  return stale.length;
};

/**
 * Applies a lifecycle rule to one identity with compare-and-set, writing its event in the same
 * document, then flushes the outbox. `rule` answers a domain error, a transition, or `undefined`
 * when there is nothing to change.
 */
export const applyTransition = async (
  deps: CoreDeps,
  identityId: string,
  rule: (current: IdentityRecord) => E.Either<DomainError, Transition | undefined>,
): Promise<E.Either<DomainError, IdentityRecord>> => {
  const outcome = await updateWithRetry<IdentityRecord, E.Either<DomainError, IdentityRecord>>(
    deps.store,
    C.identities,
    identityId,
    (current) => {
      const decided = rule(current);
      if (E.isLeft(decided)) return keep(decided);
      if (decided.right === undefined) return keep(E.right(current));
      const { record, event } = decided.right;
      const next = withEvent(record, newEvent(deps, record, event.type, event.data));
      return write(next, E.right(next));
    },
  );
  if (outcome === undefined) return E.left(identityNotFound(identityId));
  if (outcome.written) await flushOutbox(deps, identityId, outcome.doc);
  return outcome.result;
};
