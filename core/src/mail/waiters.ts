import type { CoreDeps } from '../deps.js';
import { C } from '../store/collections.js';

/**
 * Long-poll support. A waiter sleeps until its identity changes, its time runs out, its caller
 * goes away (its abort signal) or the service shuts down ({@link Waiters.end}). Changes made in
 * this process wake waiters at once (the event hub: the fast path); changes made by another
 * process over the same store are noticed by one shared loop that reads each waited-on
 * identity's `version` every `pollMs` while anyone waits (the source of truth, rule 7).
 */
export class Waiters {
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly versions = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private waiting = 0;
  private ending = false;
  private idlers: (() => void)[] = [];

  constructor(
    private readonly deps: CoreDeps,
    private readonly pollMs = 20,
  ) {
    deps.hub.subscribe((event) => this.wake(event.identity_id));
  }

  /**
   * Answers `check()` as soon as it is defined: at once, or after a change of the identity, or
   * `undefined` once `timeoutMs` has passed, `signal` has fired or the waiters were ended. `check`
   * must be cheap and side-effect free.
   */
  async until<T>(identityId: string, check: () => Promise<T | undefined>, timeoutMs: number, signal?: AbortSignal): Promise<T | undefined> {
    this.waiting += 1;
    try {
      return await this.waitFor(identityId, check, timeoutMs, signal);
    } finally {
      this.waiting -= 1;
      if (this.waiting === 0) for (const idle of this.idlers.splice(0)) idle();
    }
  }

  /** Resolves once no wait is open: after {@link end}, when the waits have read their last answer. */
  idle(): Promise<void> {
    return this.waiting === 0 ? Promise.resolve() : new Promise((resolve) => this.idlers.push(resolve));
  }

  /** Calls of {@link until} not answered yet (long-polls waiting). */
  get open(): number {
    return this.waiting;
  }

  /** Sleeping waiters, each holding one timer: none once every wait has ended. */
  get sleeping(): number {
    let count = 0;
    for (const set of this.wakers.values()) count += set.size;
    return count;
  }

  /** True once {@link end} was called: waits then answer after one check, without sleeping. */
  get ended(): boolean {
    return this.ending;
  }

  private async waitFor<T>(identityId: string, check: () => Promise<T | undefined>, timeoutMs: number, signal: AbortSignal | undefined): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // The version is read before `check`, so a change made by another process after `check`
      // read the store shows as a newer version at the next poll; taken only at the first poll,
      // the baseline would already include a change made in between, and the waiter would sleep
      // through it to its deadline.
      const baseline = this.versions.has(identityId) ? undefined : await this.versionOf(identityId);
      const found = await check();
      const left = deadline - Date.now();
      if (found !== undefined || left <= 0 || this.ending || signal?.aborted === true) return found;
      if (baseline !== undefined && !this.versions.has(identityId)) this.versions.set(identityId, baseline);
      await this.sleep(identityId, left, signal);
    }
  }

  private async versionOf(identityId: string): Promise<number | undefined> {
    return (await this.deps.store.get(C.identities, identityId).catch(() => undefined))?.version;
  }

  /**
   * Ends every wait now (each answers what its check finds, without waiting out its time) and
   * makes later ones answer after one check: the first step of a shutdown, so that long-polls in
   * flight do not hold the HTTP server open for their remaining seconds.
   */
  end(): void {
    this.ending = true;
    for (const set of [...this.wakers.values()]) for (const done of [...set]) done();
    this.close();
  }

  /** Stops the shared loop (sleeping waiters still end on their own, or by {@link end}). */
  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private sleep(identityId: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const set = this.wakers.get(identityId) ?? new Set();
      this.wakers.set(identityId, set);
      let settled = false;
      // Called by the timer, a change, the caller's abort or `end`, whichever comes first; the
      // others find it settled. Without the abort, a caller that hung up kept its timer (and the
      // process) for the rest of its wait.
      const done = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timeout);
        signal?.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.wakers.get(identityId) === set) this.forget(identityId);
        resolve();
      };
      const timeout = setTimeout(done, ms);
      set.add(done);
      signal?.addEventListener('abort', done, { once: true });
      this.ensureLoop();
    });
  }

  private wake(identityId: string): void {
    for (const done of [...(this.wakers.get(identityId) ?? [])]) done();
  }

  private forget(identityId: string): void {
    this.wakers.delete(identityId);
    this.versions.delete(identityId);
    if (this.wakers.size === 0) this.close();
  }

  private ensureLoop(): void {
    if (this.timer !== undefined || this.ending) return;
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.poll().finally(() => (busy = false));
    }, this.pollMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    for (const identityId of [...this.wakers.keys()]) {
      const version = await this.versionOf(identityId);
      if (version === undefined) continue;
      const seen = this.versions.get(identityId);
      this.versions.set(identityId, version);
      if (seen !== undefined && seen !== version) this.wake(identityId);
    }
  }
}
