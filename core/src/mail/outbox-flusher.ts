import type { CoreDeps } from '../deps.js';
import type { IdentityRecord } from '../domain/identity.js';
import { flushOutbox } from '../store/outbox.js';

/** Flushes an identity's outbox; see {@link flusherFor}. */
export type OutboxFlusher = (identityId: string, written: IdentityRecord) => Promise<void>;

interface Rounds {
  /** The last round started or queued; the entry goes once it settles with nothing after it. */
  tail: Promise<void>;
  /** A round that waits for the running one, and that later callers join. */
  queued: Promise<void> | undefined;
  /** The record the first round was given and that round: callers with the same record join it. */
  readonly first: { readonly written: IdentityRecord; readonly round: Promise<void> };
}

const noop = (): void => undefined;

/**
 * Runs one outbox flush at a time per identity in this process; callers that come while one runs
 * share the next round, which reads the identity afresh and logs everything pending by then.
 *
 * Twenty SMTP sessions delivering to one identity used to flush twenty times over each other's
 * pending events: each flush logs every event pending in the record it was given, so all but the
 * first insert of an event answered "exists" and left a gap row. 400 such deliveries logged 402
 * events and 2,859 gap rows. Every round still is a whole `flushOutbox`, so ordering, crash
 * safety and what several processes may do are unchanged; this only stops one process from
 * racing itself. A caller resolves once a round that began after its own write has finished.
 */
const createOutboxFlusher = (deps: CoreDeps): OutboxFlusher => {
  const rounds = new Map<string, Rounds>();
  const settle = (identityId: string, entry: Rounds, round: Promise<void>): void => {
    const forget = (): void => {
      if (rounds.get(identityId) === entry && entry.tail === round) rounds.delete(identityId);
    };
    round.then(forget, forget);
  };
  return (identityId, written) => {
    const entry = rounds.get(identityId);
    if (entry === undefined) {
      const round = flushOutbox(deps, identityId, written);
      const fresh: Rounds = { tail: round, queued: undefined, first: { written, round } };
      rounds.set(identityId, fresh);
      settle(identityId, fresh, round);
      return round;
    }
    // Recordings applied in one update share its record; the round given it logs all their events.
    if (entry.first.written === written) return entry.first.round;
    if (entry.queued !== undefined) return entry.queued;
    const round = entry.tail.then(noop, noop).then(() => {
      entry.queued = undefined;
      return flushOutbox(deps, identityId);
    });
    entry.queued = round;
    entry.tail = round;
    settle(identityId, entry, round);
    return round;
  };
};

const flushers = new WeakMap<CoreDeps, OutboxFlusher>();

/** The flusher of one service (its deps), made on first use. */
export const flusherFor = (deps: CoreDeps): OutboxFlusher => {
  let flusher = flushers.get(deps);
  if (flusher === undefined) {
    flusher = createOutboxFlusher(deps);
    flushers.set(deps, flusher);
  }
  return flusher;
};
