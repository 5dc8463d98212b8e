/** Reading `/metrics` in end-to-end tests. */

/** Every sample of a Prometheus text exposition, by series (`name{labels}`, as written). */
export const parseSamples = (text: string): Map<string, number> => {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
};

/** Metric names declared by `# TYPE` lines, with their types. */
export const declaredMetrics = (text: string): Map<string, string> =>
  new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1]!, match[2]!]));

/** Scrapes the host's `/metrics`. */
export const scrape = async (base: string): Promise<string> => {
  const response = await fetch(`${base}/metrics`);
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  return response.text();
};

/** The sum of every series of `name` whose labels include all of `labels` (`'outcome="accepted"'`). */
export const total = (samples: Map<string, number>, name: string, ...labels: string[]): number => {
  let sum = 0;
  for (const [series, value] of samples) {
    const brace = series.indexOf('{');
    const seriesName = brace === -1 ? series : series.slice(0, brace);
    if (seriesName === name && labels.every((label) => series.includes(label))) sum += value;
  }
  return sum;
};
