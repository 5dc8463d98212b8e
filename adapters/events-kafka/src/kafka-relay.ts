import type { EventRecord, RelayOptions, RelayReport } from '@ephemail/core';
import type { KafkaEventPublisher } from './kafka-event-publisher.js';
import { describeError, silentLogger, type KafkaLogger } from './logger.js';

/**
 * The part of the ephemail façade the relay needs (`createEphemail(...)` satisfies it): one
 * leased tick over the event log that moves the relay's stored cursor only after `handle` resolved.
 */
export interface EventRelaySource {
  readonly relays: {
    tick(name: string, owner: string, handle: (events: readonly EventRecord[]) => Promise<void>, options?: RelayOptions): Promise<RelayReport>;
  };
}

export interface KafkaRelayOptions {
  /** Names this process as the lease holder; unique per process (e.g. host name and pid). */
  readonly owner: string;
  /** The relay's name: its cursor and lease in the store. Default `'kafka'`. */
  readonly name?: string;
  /** Pause between passes once the log is drained, in ms. Default 200. */
  readonly intervalMs?: number;
  /** Events per tick (one producer send). Default 200. */
  readonly batch?: number;
  /** The relay's lease in ms; another process takes over when it runs out. Default 15000. */
  readonly leaseMs?: number;
  /** How long a hole in the log is waited for before it is passed, in ms. Default 10000. */
  readonly gapTimeoutMs?: number;
  /** Longest pause after repeated failures, in ms. Default 30000. */
  readonly maxBackoffMs?: number;
  readonly logger?: KafkaLogger;
}

/** A running relay. */
export interface KafkaRelay {
  /** Stops the timer, waits for a pass in progress, then drains the log once more. Never rejects. */
  stop(): Promise<void>;
}

interface RelaySettings {
  readonly name: string;
  readonly owner: string;
  readonly intervalMs: number;
  readonly batch: number;
  readonly maxBackoffMs: number;
  readonly logger: KafkaLogger;
  readonly tick: RelayOptions;
}

const settingsOf = (options: KafkaRelayOptions): RelaySettings => {
  const batch = options.batch ?? 200;
  return {
    name: options.name ?? 'kafka',
    owner: options.owner,
    intervalMs: options.intervalMs ?? 200,
    batch,
    maxBackoffMs: options.maxBackoffMs ?? 30_000,
    logger: options.logger ?? silentLogger,
    tick: { batch, leaseMs: options.leaseMs, gapTimeoutMs: options.gapTimeoutMs },
  };
};

/** Ticks until the log is drained (a short batch), the lease is someone else's, or `interrupted()`. */
const drainLog = async (source: EventRelaySource, publish: KafkaEventPublisher['publish'], s: RelaySettings, interrupted: () => boolean): Promise<void> => {
  for (;;) {
    const report = await source.relays.tick(s.name, s.owner, publish, s.tick);
    if (report.handled > 0) s.logger.info({ relay: s.name, published: report.handled, position: report.position }, 'events published to kafka');
    if (!report.leader || report.handled < s.batch || interrupted()) return;
  }
};

/** Logs a failed pass and answers the pause before the next: doubling per failure, capped. */
const pauseAfterFailure = (s: RelaySettings, failures: number, error: unknown): number => {
  const delay = Math.min(s.maxBackoffMs, s.intervalMs * 2 ** Math.min(failures, 20));
  s.logger.warn({ relay: s.name, failures, retryInMs: delay, ...describeError(error) }, 'kafka relay pass failed; the cursor stays, retrying after a pause');
  return delay;
};

/**
 * Publishes the event log to Kafka: a pass ticks the relay until the log is drained or another
 * process holds the lease, then waits `intervalMs`. Passes never overlap. A failed send leaves
 * the cursor where it was, so the pass is logged and repeated after a pause that doubles per
 * failure; nothing is lost, and a batch may be published more than once.
 */
export const startKafkaRelay = (source: EventRelaySource, publisher: Pick<KafkaEventPublisher, 'publish'>, options: KafkaRelayOptions): KafkaRelay => {
  const s = settingsOf(options);
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;

  const succeeded = (): number => {
    failures = 0;
    return s.intervalMs;
  };
  const failed = (error: unknown): number => pauseAfterFailure(s, (failures += 1), error);
  const cycle = (): void => {
    running = drainLog(source, publisher.publish, s, () => stopped)
      .then(succeeded, failed)
      .then((delay) => {
        running = undefined;
        if (stopped) return;
        timer = setTimeout(cycle, delay);
        timer.unref();
      });
  };
  const stop = async (): Promise<void> => {
    stopped = true;
    clearTimeout(timer);
    await running;
    // The final drain is not interruptible: it runs until the log is drained.
    await drainLog(source, publisher.publish, s, () => false).catch((error: unknown) =>
      s.logger.warn({ relay: s.name, ...describeError(error) }, 'kafka relay final drain failed; the next start resumes from the cursor'),
    );
  };
  cycle();
  return { stop: () => (stopping ??= stop()) };
};
