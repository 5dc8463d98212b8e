import type { CoreDeps } from '../deps.js';
import { C } from '../store/collections.js';

/**
 * Long-poll support. A waiter sleeps until its identity changes or its time runs out. Changes
 * made in this process wake waiters at once (the event hub: the fast path); changes made by
 * another process over the same store are noticed by one shared loop that reads each waited-on
 * identity's `version` every `pollMs` while anyone waits (the source of truth, rule 7).
 */
export class Waiters {
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly versions = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private waiting = 0;

  constructor(
    private readonly deps: CoreDeps,
    private readonly pollMs = 20,
  ) {
    deps.hub.subscribe((event) => this.wake(event.identity_id));
  }

  /**
   * Answers `check()` as soon as it is defined: at once, or after a change of the identity, or
   * `undefined` once `timeoutMs` has passed. `check` must be cheap and side-effect free.
   */
  async until<T>(identityId: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
    this.waiting += 1;
    try {
      return await this.waitFor(identityId, check, timeoutMs);
    } finally {
      this.waiting -= 1;
    }
  }

  /** Calls of {@link until} not answered yet (long-polls waiting). */
  get open(): number {
    return this.waiting;
  }

  private async waitFor<T>(identityId: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // The version is read before `check`, so a change made by another process after `check`
      // read the store shows as a newer version at the next poll; taken only at the first poll,
      // the baseline would already include a change made in between, and the waiter would sleep
      // through it to its deadline.
      const baseline = this.versions.has(identityId) ? undefined : await this.versionOf(identityId);
      const found = await check();
      const left = deadline - Date.now();
      if (found !== undefined || left <= 0) return found;
      if (baseline !== undefined && !this.versions.has(identityId)) this.versions.set(identityId, baseline);
      await this.sleep(identityId, left);
    }
  }

  private async versionOf(identityId: string): Promise<number | undefined> {
    return (await this.deps.store.get(C.identities, identityId).catch(() => undefined))?.version;
  }

  /** Stops the shared loop (waiters still time out on their own). */
  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private sleep(identityId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const set = this.wakers.get(identityId) ?? new Set();
      this.wakers.set(identityId, set);
      const done = () => {
        clearTimeout(timeout);
        set.delete(done);
        if (set.size === 0) this.forget(identityId);
        resolve();
      };
      const timeout = setTimeout(done, ms);
      set.add(done);
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
    if (this.timer !== undefined) return;
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
