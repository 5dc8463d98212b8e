import type { CounterName, GaugeName, HistogramName, MetricName } from './catalogue.js';
import { METRICS } from './catalogue.js';
import type { GaugeReading, Meter } from './meter.js';

/**
 * One series' numbers. A counter's: its total. A histogram's: the observations per bucket (one
 * per upper bound of the catalogue, then one for `+Inf`; not cumulative), then their sum and count.
 */
export type SeriesValues = Float64Array;

/** What a tally counted since it was last taken: for each series with news, its numbers. */
export type TallySnapshot = readonly (readonly [MetricName, string, SeriesValues])[];

/**
 * A {@link Meter} that keeps its counts in plain numbers, one small array per series, allocated
 * when a series is first seen: a count or an observation costs two map lookups and a few
 * additions. The host's Prometheus meter reads its totals at a scrape; a delivery thread's tally
 * is taken (and starts afresh) when the thread posts to the host, which merges it into its own.
 */
export interface Tally extends Meter {
  /** What was counted since the last take, or `undefined` when nothing was; the tally starts again at 0. */
  take(): TallySnapshot | undefined;
  /** Adds what another tally took. */
  merge(snapshot: TallySnapshot): void;
  /** The series of a counter or histogram so far, by label string. */
  series(metric: CounterName | HistogramName): ReadonlyMap<string, SeriesValues>;
  /** Reads every reader of a gauge (see {@link Meter.gauge}) and adds up what they answer. */
  readGauge(gauge: GaugeName): Promise<GaugeReading>;
}

const widthOf = (metric: MetricName): number => {
  const spec = METRICS[metric];
  return spec.kind === 'histogram' ? spec.buckets.length + 3 : 1;
};

const addUp = (readings: readonly GaugeReading[]): GaugeReading => {
  if (readings.every((reading) => typeof reading === 'number')) return readings.reduce<number>((sum, n) => sum + (n as number), 0);
  const total: Record<string, number> = {};
  for (const reading of readings) {
    if (typeof reading === 'number') continue;
    for (const [label, value] of Object.entries(reading)) total[label] = (total[label] ?? 0) + value;
  }
  return total;
};

/**
 * A tally with the catalogue's closed label values present from the start (at 0). `onNews` runs
 * when the first count after a take (or after creation) arrives: a thread schedules its post.
 */
export const createTally = (onNews?: () => void): Tally => {
  const all = new Map<MetricName, Map<string, SeriesValues>>();
  const readers = new Map<GaugeName, (() => GaugeReading | Promise<GaugeReading>)[]>();
  let news = false;
  const seriesOf = (metric: MetricName): Map<string, SeriesValues> => {
    let map = all.get(metric);
    if (map === undefined) {
      map = new Map();
      all.set(metric, map);
    }
    return map;
  };
  const valuesOf = (metric: MetricName, label: string): SeriesValues => {
    const map = seriesOf(metric);
    let values = map.get(label);
    if (values === undefined) {
      values = new Float64Array(widthOf(metric));
      map.set(label, values);
    }
    return values;
  };
  const touched = (): void => {
    if (news) return;
    news = true;
    onNews?.();
  };
  for (const [metric, spec] of Object.entries(METRICS) as [MetricName, (typeof METRICS)[MetricName]][]) {
    if (spec.kind === 'gauge') continue;
    if (spec.labels.length === 0) valuesOf(metric, '');
    for (const label of 'values' in spec ? spec.values : []) valuesOf(metric, label);
  }
  return {
    count: (counter, label = '', by = 1) => {
      valuesOf(counter, label)[0]! += by;
      touched();
    },
    observe: (histogram, value, label = '') => {
      const values = valuesOf(histogram, label);
      const bounds = METRICS[histogram].buckets;
      let bucket = 0;
      while (bucket < bounds.length && value > bounds[bucket]!) bucket += 1;
      values[bucket]! += 1;
      values[bounds.length + 1]! += value;
      values[bounds.length + 2]! += 1;
      touched();
    },
    gauge: (gauge, read) => {
      const list = readers.get(gauge) ?? [];
      list.push(read);
      readers.set(gauge, list);
    },
    take: () => {
      if (!news) return undefined;
      news = false;
      const taken: [MetricName, string, SeriesValues][] = [];
      for (const [metric, map] of all) {
        for (const [label, values] of map) {
          if (values.every((n) => n === 0)) continue;
          taken.push([metric, label, values.slice()]);
          values.fill(0);
        }
      }
      return taken;
    },
    merge: (snapshot) => {
      for (const [metric, label, values] of snapshot) {
        const own = valuesOf(metric, label);
        for (let i = 0; i < own.length; i += 1) own[i]! += values[i] ?? 0;
      }
      if (snapshot.length > 0) touched();
    },
    series: (metric) => seriesOf(metric),
    readGauge: async (gauge) => addUp(await Promise.all((readers.get(gauge) ?? []).map((read) => read()))),
  };
};
