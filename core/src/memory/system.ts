import type { Clock } from '../ports/clock.js';
import type { Ids } from '../ports/ids.js';
import { sharedRandomPool as pool } from './random-pool.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Wall-clock time. */
export const systemClock: Clock = { now: () => new Date() };

/** Identifiers from node:crypto: `<prefix>_` + 24 base64url characters (144 random bits). */
export const cryptoIds: Ids = {
  next: (prefix) => `${prefix}_${pool.bytes(18).toString('base64url')}`,
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
