import type { CounterName, GaugeName, HistogramName } from './catalogue.js';

/** What a gauge reads at a scrape: one value, or one per label value. */
export type GaugeReading = number | Readonly<Record<string, number>>;

/**
 * Where core, the adapters and the host report what happened, for `/metrics`; metrics are named
 * in the catalogue (catalogue.ts). Unlike the other ports, nothing here returns a Promise: a count
 * is made on the path it counts (each SMTP message, each store operation), so it is synchronous,
 * cheap and never throws into its caller.
 *
 * A series is named by one label string: `''` for a metric without labels, the value for one
 * label, and the values joined by a comma, in the catalogue's order, for two (`'otp,high'`).
 * Callers pass strings they hold already (constants, a configured name), never built per call.
 */
export interface Meter {
  /** Adds `by` (default 1, never negative) to the counter's series `label`. */
  count(counter: CounterName, label?: string, by?: number): void;
  /** Records one observation of the histogram's series `label`, in its unit (seconds). */
  observe(histogram: HistogramName, value: number, label?: string): void;
  /**
   * Has the gauge read by `read` at each scrape, on the thread that serves `/metrics` (a meter of
   * another thread ignores it). Readings of several readers of one gauge add up; a reader that
   * throws or rejects leaves the gauge as it was at the last scrape.
   */
  gauge(gauge: GaugeName, read: () => GaugeReading | Promise<GaugeReading>): void;
}

const ignore = (): void => undefined;

/** The meter of a service nobody scrapes: counts nothing. */
export const noMeter: Meter = { count: ignore, observe: ignore, gauge: ignore };
