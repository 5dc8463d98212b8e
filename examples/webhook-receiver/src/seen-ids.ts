/**
 * The event ids a receiver has handled, bounded: beyond `capacity` the oldest is forgotten, so a
 * receiver that runs for months holds a fixed amount of memory. A delivery older than what is
 * remembered would be handled twice; size the capacity above the deliveries of the retry window
 * (about an hour at the default schedule), or keep the ids in your database instead.
 */
export class SeenIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error('capacity must be a positive integer');
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    // A Set iterates in insertion order: the first entry is the oldest.
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }

  get size(): number {
    return this.ids.size;
  }
}
