/**
 * The open part's per-case failures, for whoever works on the engine: every message of the chosen
 * open products that the engine gets wrong (or right below 0.5, or a none-mail answered at ≥ 0.5)
 * under the model fitted without its product, as in the benchmark's leave-one-product-out. Run:
 *   node --import=tsx --conditions=@ephemail/source benchmarks/extraction/real/failures.ts [--product a,b] [--shared]
 * Default: the open real products. `--shared` adds the shared corpus's products. `--calibrated`
 * fits each fold's calibration out of fold as the benchmark does (slower; without it, false
 * positives are under-reported). `--both` lists,
 * instead, the mails holding a code and a link where either is missing or under 0.5. Sealed products
 * are refused. Reads the cache as it is (run build.ts first).
 */
import { MODEL, explain, extractWith } from '@ephemail/core';
import { fitCalibrated } from '../calibrate.js';
import { fitModel } from '../fit.js';
import { byProduct, evaluateWith, report } from '../lopo.js';
import { prepareCorpus, prepareSamples } from '../prepare.js';
import { row } from '../print.js';
import { holdsCodeAndLink } from './evaluate.js';
import { loadReal } from './load.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};

const shared = await prepareCorpus();
const sharedProducts = new Set(shared.map((p) => p.sample.product));
const real = loadReal(sharedProducts);
const open = [...shared, ...(await prepareSamples(real.open))];
const asked = (arg('--product') ?? '').split(',').filter(Boolean);
const refused = asked.filter((p) => !open.some((o) => o.sample.product === p));
if (refused.length > 0) {
  console.error(`not an open product (sealed, or not built): ${refused.join(', ')}`);
  process.exit(2);
}
const chosen = asked.length > 0 ? asked : [...real.openProducts, ...(process.argv.includes('--shared') ? [...sharedProducts] : [])];

for (const product of [...new Set(chosen)].sort()) {
  const others = open.filter((p) => p.sample.product !== product);
  // The benchmark's inner folds for the calibration (lopo.ts).
  const model = process.argv.includes('--calibrated') ? fitCalibrated(byProduct(others), {}, 4) : fitModel(others.map((p) => p.row));
  const mine = open.filter((p) => p.sample.product === product);
  if (process.argv.includes('--both')) {
    for (const p of mine.filter(holdsCodeAndLink)) {
      if (p.message === undefined) continue;
      const { candidates } = extractWith(model ?? MODEL)(p.message);
      const secrets = [{ kind: p.sample.label.kind, value: p.sample.label.value }, ...(p.sample.label.also ?? [])];
      const found = secrets.map((s) => candidates.find((c) => c.type === s.kind && c.value === s.value));
      if (found.every((c) => c !== undefined && c.confidence >= 0.5)) continue;
      const shown = found.map((c, i) => (c === undefined ? `${secrets[i]?.kind} missing` : `${c.type} ${c.confidence} ${explain(c, model ?? MODEL).slice(0, 6).map((x) => `${x.signal} ${x.contribution}`).join(', ')}`));
      console.log(`${p.sample.label.file} -> ${shown.join(' | ')}`);
    }
    continue;
  }
  const outcomes = evaluateWith(model, mine);
  for (const o of outcomes) {
    const confidence = o.top?.confidence ?? 0;
    const wrong = o.label.kind === 'none' ? confidence >= 0.5 : !o.correct || confidence < 0.5;
    if (!wrong) continue;
    const t = o.top;
    const why = t === undefined ? 'nothing' : `${t.type} ${t.value.slice(0, 240)} ${t.confidence} ${explain(t, model ?? MODEL).slice(0, 6).map((c) => `${c.signal} ${c.contribution}`).join(', ')}`;
    console.log(`${o.label.file} [${o.label.kind} ${String(o.label.value).slice(0, 240)}] -> ${why}`);
  }
  console.log(row(product, report(outcomes).all));
}
