import type { DocumentStore } from '../../src/index.js';

/** What happens to one operation of a simulated process. */
export type Fate = 'ok' | 'kill-before' | 'kill-after' | 'hang' | 'stall';

export const KILLED = 'KILLED (simulated crash)';

const never = <T>(): Promise<T> => new Promise<T>(() => {});

/**
 * Decides fates from a seeded random source and holds stalled operations until released, so a
 * paused process resumes later (after its leases ran out) with what it read before.
 */
export class Chaos {
  readonly counts: Record<Fate, number> = { ok: 0, 'kill-before': 0, 'kill-after': 0, hang: 0, stall: 0 };
  private stalled: (() => void)[] = [];

  constructor(
    private readonly random: () => number,
    private readonly odds: { readonly killBefore: number; readonly killAfter: number; readonly hang: number; readonly stall: number },
  ) {}

  fate(): Fate {
    const r = this.random();
    const { killBefore, killAfter, hang, stall } = this.odds;
    const fate: Fate = r < killBefore ? 'kill-before' : r < killBefore + killAfter ? 'kill-after' : r < killBefore + killAfter + hang ? 'hang' : r < killBefore + killAfter + hang + stall ? 'stall' : 'ok';
    this.counts[fate] += 1;
    return fate;
  }

  stall(): Promise<void> {
    return new Promise((resolve) => this.stalled.push(resolve));
  }

  /** Lets every stalled operation go on. */
  releaseStalled(): void {
    const held = this.stalled;
    this.stalled = [];
    for (const resume of held) resume();
  }
}

/**
 * One run of a simulated process. Once killed (by a thrown crash or a hang) every further
 * operation it starts hangs forever, as in a process that no longer exists; `halted` resolves
 * when it dies or pauses, so the harness never waits on it.
 */
export class Incarnation {
  dead = false;
  paused = false;
  private wake!: () => void;
  readonly halted: Promise<void> = new Promise((resolve) => (this.wake = resolve));

  constructor(private readonly chaos: Chaos) {}

  kill(): void {
    this.dead = true;
    this.wake();
  }

  /** Runs `operation` under a fate; the same fates apply to store calls and to posts. */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    if (this.dead) return never();
    const fate = this.chaos.fate();
    if (fate === 'kill-before') {
      this.kill();
      throw new Error(KILLED);
    }
    if (fate === 'hang') {
      this.kill();
      return never();
    }
    if (fate === 'stall') {
      this.paused = true;
      this.wake();
      await this.chaos.stall();
    }
    const result = await operation();
    if (fate === 'kill-after') {
      this.kill();
      throw new Error(KILLED);
    }
    return result;
  }
}

/** The shared store as one simulated process sees it: every data operation under chaos. */
export const chaosStore = (inner: DocumentStore, incarnation: Incarnation): DocumentStore => ({
  init: (collections) => inner.init(collections),
  get: (collection, id) => incarnation.run(() => inner.get(collection, id)),
  insert: (collection, doc) => incarnation.run(() => inner.insert(collection, doc)),
  replace: (collection, doc, version) => incarnation.run(() => inner.replace(collection, doc, version)),
  update: (collection, id, change) => incarnation.run(() => inner.update(collection, id, change)),
  increment: (collection, id, field, by, bounds) => incarnation.run(() => inner.increment(collection, id, field, by, bounds)),
  remove: (collection, id, version) => incarnation.run(() => inner.remove(collection, id, version)),
  find: (collection, query) => incarnation.run(() => inner.find(collection, query)),
  count: (collection, query) => incarnation.run(() => inner.count(collection, query)),
  ping: () => inner.ping(),
  close: async () => {},
});
