import type { EventRecord } from '../domain/event.js';

/** Called in-process for each event newly written to the log. */
export type EventListener = (event: EventRecord) => void;

/**
 * In-process fan-out of newly logged events: the fast path that wakes long-poll waiters and
 * streams in this process. Never the source of truth (rule 7): the event log in the store is.
 */
export class EventHub {
  private readonly listeners = new Set<EventListener>();

  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: EventRecord): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A faulty listener must not stop the others or the write that produced the event.
      }
    }
  }
}
