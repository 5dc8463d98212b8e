/**
 * Extraction benchmark: accuracy, calibration and speed over the labelled corpus and the
 * real-package corpus (real/, built or reused from its cache first). Run:
 *   node --import=tsx --conditions=@ephemail/source benchmarks/extraction/run.ts
 * Prints a summary and writes benchmarks/results/extraction.json. Sealed products of the real
 * corpus are reported in aggregate only (ADR 0047).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL, extract } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import PostalMime from 'postal-mime';
import type { Sample } from './corpus.js';
import { FIT_DEFAULTS, fitModel } from './fit.js';
import { evaluateWith, leaveOneProductOut, report } from './lopo.js';
import type { Metrics } from './metrics.js';
import { prepareCorpus } from './prepare.js';
import { row } from './print.js';
import { bothSecrets, goalLines, sealedReport } from './real/evaluate.js';
import { prepareReal } from './real/bench.js';
import { startStockParser } from './stock-parser.js';
import { measureInterleaved, type Throughput } from './throughput.js';

const parser = createPostalMimeMailParser();
const shared = await prepareCorpus();
const real = await prepareReal(shared);
// The open part: the shared corpus and the real corpus's open products. Products in both keep one
// name, so they are one fold.
const prepared = [...shared, ...real.open];
const samples = prepared.map((p) => p.sample);
// In-sample: the committed model, fitted on every message of the shared corpus, judged there.
// Kept for comparison with earlier runs; the leave-one-product-out figures are the measurement.
const inSample = report(evaluateWith(MODEL, shared));
const folds = leaveOneProductOut(prepared);
const lopo = report(folds.outcomes);
const lopoBoth = bothSecrets(prepared, (p) => folds.models[p.sample.product] ?? MODEL);
// The sealed part, judged by the model fitted on the whole open part: aggregates only.
const sealed = real.sealed.length === 0 ? undefined : sealedReport(real.sealed, fitModel(prepared.map((p) => p.row)));

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
  corpus: { messages: samples.length, products: new Set(samples.map((s) => s.product)).size, languages: new Set(samples.map((s) => s.label.lang)).size },
  real_corpus: {
    open_products: real.openProducts,
    open_messages: real.open.length,
    sealed_products: real.sealedProducts,
    sealed_messages: real.sealed.length,
    builds: real.builds.map((b) => ({ ...b, product: real.openProducts.includes(b.product) ? b.product : 'sealed' })),
  },
  leave_one_product_out: { method: `per product over the shared corpus and the open real products, the model refitted on the other products (fit: ${JSON.stringify(FIT_DEFAULTS)})`, ...lopo, both_secrets: lopoBoth },
  sealed: sealed === undefined ? null : { method: 'sealed real products judged by the model fitted on the whole open part; aggregates only', ...sealed },
  in_sample: { method: 'the committed model, fitted on the whole corpus: in-sample, for comparison only', ...inSample },
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

const macroLine = (m: typeof lopo.macro_over_products): string =>
  `acc ${m.accuracy.toFixed(3)}  fpr ${m.false_positive_rate.toFixed(3)}  recall@.5 ${m.recall_at_0_5.toFixed(3)}  ece ${m.ece.toFixed(3)}`;
const print = (title: string, rows: Record<string, Metrics>): void => {
  console.log(`\n${title}`);
  for (const [k, m] of Object.entries(rows)) console.log(row(k, m));
};
console.log('leave-one-product-out (each product judged by the model fitted without it)');
console.log(row('all', lopo.all));
console.log(`macro over ${lopo.macro_over_products.products} products: ${macroLine(lopo.macro_over_products)}`);
console.log(`worst language: ${lopo.worst_language.lang} ${(lopo.worst_language.accuracy * 100).toFixed(1)}% of ${lopo.worst_language.positives} positives`);
print('leave-one-product-out, by product', lopo.by_product);
print('leave-one-product-out, by kind', lopo.by_kind);
print('leave-one-product-out, by language', lopo.by_language);
console.log(`\nmails with a code and a link (open, leave-one-product-out): both found at >= 0.5 in ${lopoBoth.both_found} of ${lopoBoth.messages}, both among the candidates in ${lopoBoth.both_listed}`);
for (const line of goalLines('open part, leave-one-product-out', lopo.all, lopo.worst_language.positives > 0 ? lopo.worst_language.accuracy : null, lopoBoth)) console.log(line);
if (sealed !== undefined) {
  console.log(`\nsealed part: ${sealed.products} products, ${sealed.messages} messages, ${sealed.languages} languages (aggregates only)`);
  console.log(row('sealed all', sealed.all));
  console.log(`sealed macro over products: ${macroLine(sealed.macro_over_products)}`);
  print('sealed, by kind', sealed.by_kind);
  for (const line of goalLines('sealed part', sealed.all, sealed.worst_language_accuracy, sealed.both_secrets)) console.log(line);
}
console.log('\nin-sample (the committed model on the corpus it was fitted on; for comparison only)');
console.log(row('all', inSample.all));
console.log(`macro over products: ${macroLine(inSample.macro_over_products)}`);
console.log('\nthroughput (single core)');
for (const [k, t] of Object.entries(result.throughput)) console.log(`${k.padEnd(40)} ${typeof t !== 'object' ? t : `${t.messages_per_s} msg/s  ${t.mb_per_s} MB/s  max ${t.max_ms} ms  p99 ${t.p99_ms} ms`}`);

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'extraction.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nwritten to benchmarks/results/extraction.json`);
