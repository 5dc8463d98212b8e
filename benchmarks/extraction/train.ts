/**
 * Fits the engine's model on the whole corpus and writes it to
 * core/src/extraction/model-weights.ts (the committed weights). Run:
 *   node --import=tsx --conditions=@ephemail/source benchmarks/extraction/train.ts
 * The fit is deterministic: the same corpus and signals give the same file. The benchmark's
 * leave-one-product-out figures refit the same way per fold, without the held-out product.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IDENTITY_CALIBRATION } from '@ephemail/core';
import { fitCalibrated } from './calibrate.js';
import { byProduct } from './lopo.js';
import { prepareCorpus } from './prepare.js';

const prepared = await prepareCorpus();
// Calibrated on out-of-fold scores: each product scored by the model fitted without it.
const model = fitCalibrated(byProduct(prepared));
const lines = Object.entries(model.weights).map(([k, w]) => `    '${k}': ${w},`);
const source = `import type { Model } from './model.js';

/**
 * The committed model (see model.ts), fitted on all ${prepared.length} messages of the corpus by
 * benchmarks/extraction/train.ts. Generated: refit rather than edit by hand.
 */
export const MODEL: Model = {
  scale: ${model.scale},
  bias: ${model.bias},
  calibration: ${JSON.stringify(model.calibration ?? IDENTITY_CALIBRATION).replace(/"(\w+)":/g, '$1: ').replace(/,/g, ', ').replace(/\{/g, '{ ').replace(/\}/g, ' }')},
  weights: {
${lines.join('\n')}
  },
};
`;
const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'core', 'src', 'extraction', 'model-weights.ts');
writeFileSync(out, source);
console.log(`fitted on ${prepared.length} messages: bias ${model.bias}, ${lines.length} weights; written to core/src/extraction/model-weights.ts`);
