/**
 * Extraction robustness benchmark: every mail of the labelled corpus and of the real-package
 * corpus (from its cache, when the extraction benchmark has built it) transformed by each variant
 * of benchmarks/extraction/robustness/families, and the share of answers that survive. Run:
 *   node --import=tsx --conditions=@ephemail/source benchmarks/extraction-robustness/run.ts [--failures[=text]]
 * Writes benchmarks/results/extraction-robustness.json. The sealed part is reported in aggregate
 * only (ADR 0047); `--failures` prints the open part's broken answers (those whose variant names
 * contain the text). ROBUSTNESS_SAMPLE=0.5 runs each variant on a seeded half of the mails.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Prepared } from '../extraction/lopo.js';
import { prepareCorpus, prepareSamples } from '../extraction/prepare.js';
import { builtProducts, loadReal } from '../extraction/real/load.js';
import { evaluatePart, SEED } from '../extraction/robustness/evaluate.js';
import { FAMILIES, VARIANTS } from '../extraction/robustness/families/index.js';
import { brokenByProduct, GOALS, LEGEND, partReport, printPart } from '../extraction/robustness/report.js';

const started = performance.now();
const load = loadavg().map((l) => Number(l.toFixed(2)));
const sampleShare = Math.min(1, Math.max(0, Number(process.env.ROBUSTNESS_SAMPLE ?? 1)));
const failuresArg = process.argv.find((a) => a.startsWith('--failures'));

const shared = await prepareCorpus();
// The real corpus is read from its cache and never built here: building it is the extraction
// benchmark's job (it runs first in `npm run bench`), and needs the package registries.
const useReal = process.env.REAL_CORPUS !== '0' && builtProducts().length > 0;
const real = useReal ? loadReal(new Set(shared.map((p) => p.sample.product))) : undefined;
const open: Prepared[] = [...shared, ...(real === undefined ? [] : await prepareSamples(real.open))];
const sealed: Prepared[] = real === undefined ? [] : await prepareSamples(real.sealed);

console.log(`extraction robustness: ${VARIANTS.length} variants in ${FAMILIES.length} families (${FAMILIES.join(', ')}); seed ${SEED}`);
console.log(`open part: ${open.length} mails (${shared.length} of the labelled corpus, ${open.length - shared.length} of ${real?.openProducts.length ?? 0} open real products)`);
console.log(real === undefined ? 'real-package corpus: not in the cache (run the extraction benchmark first to build it); no sealed part' : `sealed part: ${sealed.length} mails of ${real.sealedProducts.length} products (aggregates only)`);
if (sampleShare < 1) console.log(`SAMPLED: each variant runs on a seeded ${(sampleShare * 100).toFixed(0)} % of the mails (ROBUSTNESS_SAMPLE)`);

const openResult = await evaluatePart(open, VARIANTS, { open: true, share: sampleShare });
const sealedResult = sealed.length === 0 ? undefined : await evaluatePart(sealed, VARIANTS, { open: false, share: sampleShare });
const openReport = partReport(openResult);
const sealedReport = sealedResult === undefined ? null : partReport(sealedResult);
const productOf = new Map(open.map((p) => [p.sample.label.file, p.sample.product]));

console.log('');
for (const l of LEGEND) console.log(l);
printPart('open part', openReport);
if (sealedReport !== null) printPart('sealed part (aggregates only)', sealedReport);

if (failuresArg !== undefined) {
  const filter = failuresArg.split('=')[1] ?? '';
  console.log(`\nopen part, broken answers${filter === '' ? '' : ` of variants matching "${filter}"`}:`);
  for (const f of openResult.failures.filter((x) => x.variant.includes(filter))) console.log(`${f.variant.padEnd(36)} ${f.file}${f.wasRight ? '' : ' (wrong untransformed)'}\n    expected ${f.expected}\n    got      ${f.got}`);
}

const seconds = (performance.now() - started) / 1000;
const result = {
  benchmark: 'extraction-robustness',
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? '', loadavg_at_start: load },
  node: process.version,
  seed: SEED,
  sample_share: sampleShare,
  method:
    'each mail parsed by the host parser, transformed by every variant (a seeded stream per variant and mail), written back as RFC 5322 bytes, parsed again and run through extract() with the committed model; judged against the transformed label. Right: a positive answers its secret (value, or a listed spelling of it) at confidence >= 0.5; a negative answers nothing at >= 0.5. A transformed mail that no longer shows its secret, or still shows one it was to lose, is dropped (the instrument failed, not the engine).',
  goals: GOALS,
  corpus: {
    open: { messages: open.length, labelled_corpus: shared.length, real_open_products: real?.openProducts ?? [], real_open_messages: open.length - shared.length },
    sealed: real === undefined ? null : { products: real.sealedProducts.length, messages: sealed.length },
  },
  variants: VARIANTS.map((v) => ({ family: v.family, name: v.name, does: v.does })),
  open: { ...openReport, most_broken_products: brokenByProduct(openResult.failures, (file) => productOf.get(file) ?? '?') },
  sealed: sealedReport,
  runtime_s: Math.round(seconds * 10) / 10,
};

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'extraction-robustness.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\n${seconds.toFixed(1)} s; written to benchmarks/results/extraction-robustness.json`);
