import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { loadConfig, startHost } from '@ephemail/host-api';
import { declaredMetrics, scrape } from './metrics-support.js';
import { repoRoot } from './support.js';

interface Panel {
  readonly type: string;
  readonly datasource?: { readonly type: string; readonly uid: string };
  readonly targets?: readonly { readonly expr: string }[];
  readonly panels?: readonly Panel[];
}

const dashboard = JSON.parse(readFileSync(join(repoRoot, 'docs/grafana-dashboard.json'), 'utf8')) as {
  readonly __inputs: readonly { readonly name: string; readonly type: string; readonly pluginId: string }[];
  readonly panels: readonly Panel[];
  readonly templating: { readonly list: readonly { readonly definition?: string }[] };
};

const allPanels = (panels: readonly Panel[]): Panel[] => panels.flatMap((panel) => [panel, ...allPanels(panel.panels ?? [])]);

/** Every query of the dashboard: its panels' targets and its variables' definitions. */
const queries = [
  ...allPanels(dashboard.panels).flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
  ...dashboard.templating.list.flatMap((variable) => (variable.definition === undefined ? [] : [variable.definition])),
];

/** The metric a series name belongs to: a histogram's `_bucket`, `_sum` and `_count` are its own. */
const metricOf = (series: string, declared: ReadonlyMap<string, string>): string => {
  const base = series.replace(/_(bucket|sum|count)$/, '');
  return base !== series && declared.get(base) === 'histogram' ? base : series;
};

let exposition = '';
test.before(async () => {
  const host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent' }));
  try {
    exposition = await scrape(host.url);
  } finally {
    await host.close();
  }
});

test('grafana dashboard: it asks for a Prometheus data source on import, and every panel uses it', (t) => {
  t.deepEqual(dashboard.__inputs.map((input) => [input.name, input.type, input.pluginId]), [['DS_PROMETHEUS', 'datasource', 'prometheus']]);
  const charts = allPanels(dashboard.panels).filter((panel) => panel.type !== 'row');
  t.true(charts.length > 0);
  for (const panel of charts) t.deepEqual(panel.datasource, { type: 'prometheus', uid: '${DS_PROMETHEUS}' });
});

test('grafana dashboard: every metric it queries exists in a scrape of the host', (t) => {
  const declared = declaredMetrics(exposition);
  const referenced = new Set(queries.flatMap((expr) => [...expr.matchAll(/\bephemail_[a-z0-9_]+/g)].map((match) => metricOf(match[0], declared))));
  t.true(referenced.size > 0);
  t.deepEqual([...referenced].filter((name) => !declared.has(name)), []);
});

test('grafana dashboard: it charts every ephemail metric of a scrape, and docs/api.md describes each', (t) => {
  const declared = declaredMetrics(exposition);
  const ours = [...declared.keys()].filter((name) => name.startsWith('ephemail_'));
  const charted = queries.join('\n');
  t.deepEqual(ours.filter((name) => !charted.includes(name)), [], 'charted');
  const api = readFileSync(join(repoRoot, 'docs/api.md'), 'utf8');
  t.deepEqual(ours.filter((name) => !api.includes(`| \`${name}\` | ${declared.get(name)} |`)), [], 'a row of the /metrics table: name and type');
});
