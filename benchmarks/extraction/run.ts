/**
 * Extraction benchmark: accuracy, calibration and speed over the labelled corpus. Run:
 *   node --import=tsx --conditions=@ephemail/source benchmarks/extraction/run.ts
 * Prints a summary and writes benchmarks/results/extraction.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extract } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import PostalMime from 'postal-mime';
import { loadCorpus, type Sample } from './corpus.js';
import { judge, metrics, table, type Metrics, type Outcome } from './metrics.js';
import { startStockParser } from './stock-parser.js';
import { measureInterleaved, type Throughput } from './throughput.js';

const parser = createPostalMimeMailParser();

type Judged = Outcome & { readonly split: Sample['split']; readonly product: string };

const evaluate = async (samples: readonly Sample[]): Promise<Judged[]> => {
  const out: Judged[] = [];
  for (const s of samples) {
    const parsed = await parser.parse(s.raw);
    const top = parsed.ok ? extract(parsed.message).top : undefined;
    out.push({ ...judge(s.label, top), split: s.split, product: s.product });
  }
  return out;
};

const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;
const row = (name: string, m: Metrics): string =>
  `${name.padEnd(12)} ${String(m.messages).padStart(4)}  acc ${pct(m.accuracy).padStart(6)}  fpr ${pct(m.false_positive_rate).padStart(5)}  recall@.5 ${pct(m.recall_at_0_5).padStart(6)}  ece ${m.ece.toFixed(3)}`;

const samples = loadCorpus();
const outcomes = await evaluate(samples);
const splits = {
  dev: metrics(outcomes.filter((o) => o.split === 'dev')),
  heldout: metrics(outcomes.filter((o) => o.split === 'heldout')),
  all: metrics(outcomes),
};
const byLanguage = table(outcomes, (o) => o.label.lang);
const bySource = table(outcomes, (o) => (o as Judged).product);

const bytes = (s: Sample): number => s.raw.byteLength;
// The baseline is the bare parser: stock postal-mime on the same raw messages, on a thread of its
// own (stock-parser.ts), since the adapter's decoder swaps are process-wide. The same parse with
// the swaps in place is measured too: it is what the adapter runs, so the ratio to it is the
// engine's own cost (caps, HTML view and extraction). Stages are interleaved (measureInterleaved).
const stock = await startStockParser(samples.map((s) => s.raw));
const speed = await measureInterleaved(samples, bytes, [
  { name: 'parse_only', round: () => stock.round() },
  { name: 'parse_patched', work: (s) => PostalMime.parse(s.raw) },
  { name: 'adapter', work: (s) => parser.parse(s.raw) },
  {
    name: 'full',
    work: async (s) => {
      const parsed = await parser.parse(s.raw);
      return parsed.ok ? extract(parsed.message) : undefined;
    },
  },
]);
await stock.close();
const parseOnly = speed.stages.parse_only as Throughput;
const parsePatched = speed.stages.parse_patched as Throughput;
const adapterOnly = speed.stages.adapter as Throughput;
const full = speed.stages.full as Throughput;
// The same ratios taken within each round, where the stages met the same machine load.
const medianRoundRatio = (baseline: string): number => {
  const ratios = (speed.roundSeconds.full ?? []).map((f, r) => (speed.roundSeconds[baseline]?.[r] ?? 0) / f).sort((a, b) => a - b);
  return ratios[Math.floor(ratios.length / 2)] ?? 0;
};
const round2 = (n: number): number => Math.round(n * 100) / 100;

const result = {
  corpus: { messages: samples.length, templates_heldout: new Set(samples.filter((s) => s.split === 'heldout').map((s) => `${s.product}--${s.template}`)).size },
  metrics: splits,
  by_language: byLanguage,
  by_source: bySource,
  throughput: {
    parse_only_postal_mime: parseOnly,
    parse_postal_mime_swapped_decoders: parsePatched,
    parse_adapter: adapterOnly,
    parse_and_extract: full,
    ratio_to_parse_only: round2(full.messages_per_s / parseOnly.messages_per_s),
    ratio_median_of_rounds: round2(medianRoundRatio('parse_only')),
    ratio_to_swapped_parse: round2(full.messages_per_s / parsePatched.messages_per_s),
    ratio_to_swapped_parse_median_of_rounds: round2(medianRoundRatio('parse_patched')),
    rounds: speed.roundSeconds.full?.length ?? 0,
    method: `stages interleaved in every order in turn, after one warm-up round${(globalThis as { gc?: unknown }).gc ? ', heap collected between stages' : ''}`,
  },
  node: process.version,
};

console.log('split        msgs  accuracy     false pos    recall         calibration');
for (const [k, m] of Object.entries(splits)) console.log(row(k, m));
console.log('\nby language');
for (const [k, m] of Object.entries(byLanguage)) console.log(row(k, m));
console.log('\nby source');
for (const [k, m] of Object.entries(bySource)) console.log(row(k, m));
console.log('\nthroughput (single core)');
for (const [k, t] of Object.entries(result.throughput)) console.log(`${k.padEnd(40)} ${typeof t !== 'object' ? t : `${t.messages_per_s} msg/s  ${t.mb_per_s} MB/s  max ${t.max_ms} ms  p99 ${t.p99_ms} ms`}`);

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'extraction.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nwritten to benchmarks/results/extraction.json`);
