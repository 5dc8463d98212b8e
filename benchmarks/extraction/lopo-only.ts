/**
 * The accuracy half of the extraction benchmark alone (no throughput): the in-sample figures of
 * the committed model and the leave-one-product-out figures. Run:
 *   node --import=tsx --conditions=@ephemail/source benchmarks/extraction/lopo-only.ts [--errors]
 * With --errors, prints every held-out message the engine got wrong (or right below 0.5), with
 * what decided it; --langs adds the table by language, --models the fold models. FIT_SIGMA and
 * FIT_PER_SIGNAL=0 change the fit (FIT_PER_SIGNAL=0: only a scale and a bias, a Platt-style fit).
 */
import { MODEL, explain } from '@ephemail/core';
import { evaluateWith, leaveOneProductOut, report } from './lopo.js';
import { prepareCorpus } from './prepare.js';
import { row } from './print.js';

const prepared = await prepareCorpus();
const sigma = process.env.FIT_SIGMA ? Number(process.env.FIT_SIGMA) : undefined;
const inSample = report(evaluateWith(MODEL, prepared));
const perSignal = process.env.FIT_PER_SIGNAL !== '0';
const folds = leaveOneProductOut(prepared, { perSignal, ...(sigma !== undefined ? { sigma } : {}) });
const lopo = report(folds.outcomes);
if (process.argv.includes('--errors')) {
  for (const o of folds.outcomes) {
    const wrong = o.label.kind === 'none' ? (o.top?.confidence ?? 0) >= 0.5 : !o.correct || (o.top?.confidence ?? 0) < 0.5;
    if (!wrong) continue;
    const t = o.top;
    console.log(`${o.label.file} [${o.label.kind} ${String(o.label.value).slice(0, 60)}] -> ${t ? `${t.type} ${t.value.slice(0, 70)} ${t.confidence} ${JSON.stringify(explain(t, folds.models[o.product] ?? MODEL).slice(0, 6).map((c) => `${c.signal} ${c.contribution}`).join(", "))}` : 'nothing'}`);
  }
}
if (process.argv.includes('--models')) console.log(JSON.stringify(folds.models, null, 1));
console.log(row('in-sample', inSample.all));
console.log(row('lopo all', lopo.all));
const m = lopo.macro_over_products;
console.log(`lopo macro: acc ${m.accuracy.toFixed(3)} fpr ${m.false_positive_rate.toFixed(3)} recall@.5 ${m.recall_at_0_5.toFixed(3)} ece ${m.ece.toFixed(3)}; worst language ${JSON.stringify(lopo.worst_language)}`);
for (const [k, v] of Object.entries(lopo.by_product)) console.log(row(k, v));
for (const [k, v] of Object.entries(lopo.by_kind)) console.log(row(k, v));
if (process.argv.includes('--langs')) for (const [k, v] of Object.entries(lopo.by_language)) console.log(row(k, v));
