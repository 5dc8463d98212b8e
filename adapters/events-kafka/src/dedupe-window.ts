/**
 * The ids seen most recently, at most `size` of them (least recently seen leaves first). A size
 * of 0 remembers nothing. Bounded by count, so memory stays flat however long the consumer runs.
 */
export class DedupeWindow {
  // A Map iterates in insertion order; re-inserting on each hit keeps the oldest entry first.
  readonly #ids = new Map<string, true>();

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 0) throw new RangeError(`dedupe window must be a whole number >= 0, got ${size}`);
  }

  /** Whether `id` is in the window; a hit counts as seeing it again. */
  seen(id: string): boolean {
    if (!this.#ids.delete(id)) return false;
    this.#ids.set(id, true);
    return true;
  }

  /** Puts `id` in the window, dropping the least recently seen id when full. */
  remember(id: string): void {
    if (this.size === 0) return;
    this.#ids.delete(id);
    this.#ids.set(id, true);
    if (this.#ids.size > this.size) this.#ids.delete(this.#ids.keys().next().value!);
  }

  get count(): number {
    return this.#ids.size;
  }
}
