import type { CounterName, GaugeName, HistogramName, HistogramSpec, MetricName, MetricSpec, Tally } from '@ephemail/core';
import { createTally, METRICS } from '@ephemail/core';
import type { Metric, Registry } from 'prom-client';

type Labels = Readonly<Record<string, string | number>>;

/** One line of the exposition: prom-client's registry formats it. */
interface Sample {
  readonly metricName?: string;
  readonly labels: Labels;
  readonly value: number;
}

/** The labels of a series from its label string: one value, or two joined by a comma (see Meter). */
const labelsOf = (names: readonly string[], label: string): Labels => {
  if (names.length === 0) return {};
  if (names.length === 1) return { [names[0]!]: label };
  const values = label.split(',');
  return Object.fromEntries(names.map((name, i) => [name, values[i] ?? '']));
};

const counterSamples = (tally: Tally, name: CounterName, spec: MetricSpec): Sample[] =>
  [...tally.series(name)].map(([label, values]) => ({ labels: labelsOf(spec.labels, label), value: values[0]! }));

/** Buckets as the exposition wants them: cumulative, then `+Inf`, the sum and the count. */
const histogramSamples = (tally: Tally, name: HistogramName, spec: HistogramSpec): Sample[] => {
  const bounds = spec.buckets;
  const samples: Sample[] = [];
  for (const [label, values] of tally.series(name)) {
    const labels = labelsOf(spec.labels, label);
    let cumulative = 0;
    for (const [i, bound] of bounds.entries()) {
      cumulative += values[i]!;
      samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
    }
    samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: cumulative + values[bounds.length]! });
    samples.push({ metricName: `${name}_sum`, labels, value: values[bounds.length + 1]! });
    samples.push({ metricName: `${name}_count`, labels, value: values[bounds.length + 2]! });
  }
  return samples;
};

const gaugeSamples = async (tally: Tally, name: GaugeName, spec: MetricSpec): Promise<Sample[]> => {
  const reading = await tally.readGauge(name);
  if (typeof reading === 'number') return spec.labels.length === 0 ? [{ labels: {}, value: reading }] : [];
  return Object.entries(reading).map(([label, value]): Sample => ({ labels: labelsOf(spec.labels, label), value }));
};

/**
 * The service's {@link Meter}, served by `registry`: a tally (plain numbers, cheap to count into)
 * whose totals are turned into Prometheus samples only when `/metrics` is scraped, and whose
 * gauges are read then. prom-client's own Counter and Histogram hash a label object and allocate
 * on every call and take no counts made elsewhere, so each catalogue metric is registered as a
 * collector of the registry instead (an object with `get()`, which the registry formats). What
 * delivery threads counted is `merge`d into the tally. Answers the tally.
 */
export const createPromMeter = (registry: Registry): Tally => {
  const tally = createTally();
  for (const [name, spec] of Object.entries(METRICS) as [MetricName, MetricSpec][]) {
    // A gauge whose readers failed keeps what it showed at the last scrape.
    let last: Sample[] = [];
    const values = async (): Promise<Sample[]> => {
      if (spec.kind === 'counter') return counterSamples(tally, name as CounterName, spec);
      if (spec.kind === 'histogram') return histogramSamples(tally, name as HistogramName, spec);
      last = await gaugeSamples(tally, name as GaugeName, spec).catch(() => last);
      return last;
    };
    const collector = {
      name,
      help: spec.help,
      type: spec.kind,
      aggregator: 'sum',
      get: async () => ({ name, help: spec.help, type: spec.kind, aggregator: 'sum', values: await values() }),
    };
    registry.registerMetric(collector as unknown as Metric);
  }
  return tally;
};
