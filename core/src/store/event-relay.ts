import type { CoreDeps } from '../deps.js';
import type { EventRecord } from '../domain/event.js';
import { iso } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from './collections.js';
import { acquireLease } from './leases.js';
import { LOG_GAP } from './outbox.js';

interface RelayCursor {
  readonly id: string;
  readonly position: number;
  /** When the relay first saw a hole right after `position`; `null` when there is none. */
  readonly gap_since: string | null;
}

export interface RelayOptions {
  /** Events handed to `handle` at most per tick. Default 200. */
  readonly batch?: number;
  /**
   * How long a hole in the log is waited for before it is passed. A hole is a position taken by a
   * writer that has not inserted its event yet; one that inserts later than this is never relayed
   * (a writer that crashed retries under a new position, so only a writer stalled this long is
   * affected). Default 60 s.
   */
  readonly gapTimeoutMs?: number;
  /** Lease of the relay, so one process runs a given relay at a time. Default 15 s. */
  readonly leaseMs?: number;
}

export interface RelayReport {
  readonly leader: boolean;
  readonly handled: number;
  readonly position: number;
  readonly waitingForGap: boolean;
}

/** The leading run of events with consecutive positions after `from`. */
const contiguous = (events: readonly EventRecord[], from: number): EventRecord[] => {
  const run: EventRecord[] = [];
  let expected = from + 1;
  for (const event of events) {
    if (event.position !== expected) break;
    run.push(event);
    expected += 1;
  }
  return run;
};

const takeable = (events: readonly EventRecord[], cursor: RelayCursor, now: string, gapTimeoutMs: number) => {
  const run = contiguous(events, cursor.position);
  if (run.length > 0 || events.length === 0) return { run, gapSince: null };
  // A hole right after the cursor: a writer took a position and has not written (yet).
  const since = cursor.gap_since ?? now;
  const expired = Date.parse(now) - Date.parse(since) >= gapTimeoutMs;
  return expired ? { run: contiguous(events, events[0]!.position! - 1), gapSince: null } : { run: [], gapSince: since };
};

/**
 * One tick of a named relay over the event log: hands the next events, in log order, to
 * `handle`, then moves the relay's own stored cursor past them. At least once: a crash after
 * `handle` and before the cursor moved hands the same events again. A hole in the positions
 * (a writer that has not finished) is waited for up to `gapTimeoutMs`, then passed.
 */
export const relayTick = async (
  deps: CoreDeps,
  name: string,
  owner: string,
  handle: (events: readonly EventRecord[]) => Promise<void>,
  options: RelayOptions = {},
): Promise<RelayReport> => {
  if (!(await acquireLease(deps, `relay:${name}`, owner, options.leaseMs ?? 15_000))) {
    return { leader: false, handled: 0, position: 0, waitingForGap: false };
  }
  const stored = (await deps.store.get(C.relayCursors, name)) as (RelayCursor & StoredDocument) | undefined;
  const cursor: RelayCursor = stored ?? { id: name, position: 0, gap_since: null };
  const events = (await deps.store.find(C.events, {
    // Both bounds numeric: a one-sided range cannot pin the value's type, and the SQLite store
    // then reads the whole log instead of walking the position index (19 ms vs 0.12 ms at 4,000 events).
    range: { field: 'position', gt: cursor.position, lte: Number.MAX_SAFE_INTEGER },
    sort: { field: 'position', direction: 'asc' },
    limit: options.batch ?? 200,
  })) as unknown as EventRecord[];
  const { run, gapSince } = takeable(events, cursor, iso(deps.clock.now()), options.gapTimeoutMs ?? 60_000);
  const real = run.filter((event) => event.type !== LOG_GAP);
  if (real.length > 0) await handle(real);
  const next: RelayCursor = { id: name, position: run.at(-1)?.position ?? cursor.position, gap_since: gapSince };
  if (next.position !== cursor.position || next.gap_since !== cursor.gap_since) {
    const saved = stored === undefined ? (await deps.store.insert(C.relayCursors, next)) === 'inserted' : await deps.store.replace(C.relayCursors, next, stored.version);
    if (!saved) throw new Error(`relay ${name}: cursor moved by another process while this one held the lease`);
  }
  return { leader: true, handled: real.length, position: next.position, waitingForGap: gapSince !== null };
};
