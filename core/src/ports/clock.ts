/**
 * Time as a port, so TTLs, expiry, leases and retries are tested with a fake clock.
 * `now()` is synchronous: reading time never fails and never waits.
 */
export interface Clock {
  /** The current instant. */
  now(): Date;
}
