import type { Clock } from '../ports/clock.js';
import type { Ids } from '../ports/ids.js';
import { sharedRandomPool as pool } from './random-pool.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Wall-clock time. */
export const systemClock: Clock = { now: () => new Date() };

/** Digits in ASCII order, so that the encoded times of ids sort as the times do. */
const SORTABLE = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A millisecond time as 8 characters of SORTABLE (enough until the year 8895). */
const timePart = (ms: number): string => {
  let out = '';
  for (let i = 0; i < 8; i += 1) {
    out = SORTABLE[ms % 62]! + out;
    ms = Math.floor(ms / 62);
  }
  return out;
};

/**
 * Identifiers from node:crypto: `<prefix>_` + 8 characters of the creation time + 24 base64url
 * characters (144 random bits). The random part alone makes an id unguessable and unique; the time
 * part makes ids of one collection roughly ascending, so a B-tree keyed by id gains them at its
 * right edge instead of in a random leaf each (see docs/adr/0014-time-ordered-ids.md).
 */
export const cryptoIds: Ids = {
  next: (prefix) => `${prefix}_${timePart(Date.now())}${pool.bytes(18).toString('base64url')}`,
  secret: (length) => pool.chars(ALPHANUMERIC, length),
};

/** A clock that only moves when told to: for tests of TTLs, leases and retries. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.current += ms;
  }

  set(instant: Date | string): void {
    this.current = new Date(instant).getTime();
  }
}
