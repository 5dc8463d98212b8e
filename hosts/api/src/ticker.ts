/**
 * Wake-ups that arrive during a tick are served together this long after it ends, not one tick
 * per wake-up: under a stream of events each relay tick reads the log, renews its lease and moves
 * its cursor, whatever it hands on. What a tick serves waits this much longer at most.
 */
export const MIN_SPACING_MS = 25;

export interface Ticker {
  /** Runs the work now, or once more after the tick in progress (see {@link MIN_SPACING_MS}). */
  readonly tick: () => void;
  /** No tick starts any more; resolves when the one in progress has ended. */
  readonly stop: () => Promise<void>;
}

/**
 * A ticker that never overlaps itself: a wake-up during a tick (or while the next one waits to
 * start) runs one more tick {@link MIN_SPACING_MS} after it, so a burst of wake-ups costs two
 * ticks, not one per wake-up. The work may call `tick` itself to ask for another round.
 */
export const spacedTicker = (work: () => Promise<unknown>, onError: (error: unknown) => void): Ticker => {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let spaced: NodeJS.Timeout | undefined;
  const tick = (): void => {
    if (stopped) return;
    if (running !== undefined || spaced !== undefined) {
      again = true;
      return;
    }
    running = work()
      .then(() => undefined, onError)
      .finally(() => {
        running = undefined;
        if (!again || stopped) return;
        spaced = setTimeout(() => {
          // This tick serves every wake-up so far.
          spaced = undefined;
          again = false;
          tick();
        }, MIN_SPACING_MS);
        spaced.unref();
      });
  };
  return {
    tick,
    stop: async () => {
      stopped = true;
      clearTimeout(spaced);
      spaced = undefined;
      await running;
    },
  };
};
