/**
 * The real corpus in the extraction benchmark: builds it (packages come from the cache when they
 * are there), loads it and parses it. `REAL_CORPUS=0` leaves it out; `REAL_CORPUS_PRODUCTS=a,b`
 * builds only some products.
 */
import type { Prepared } from '../lopo.js';
import { prepareSamples } from '../prepare.js';
import { buildAll, type BuildSummary } from './build.js';
import { loadReal } from './load.js';

export interface RealPrepared {
  readonly open: Prepared[];
  readonly sealed: Prepared[];
  readonly openProducts: string[];
  readonly sealedProducts: number;
  readonly builds: BuildSummary[];
}

/** Builds, loads and parses the real corpus; the shared corpus's products are never sealed. */
export const prepareReal = async (shared: readonly Prepared[], log: (line: string) => void = console.log): Promise<RealPrepared> => {
  if (process.env.REAL_CORPUS === '0') return { open: [], sealed: [], openProducts: [], sealedProducts: 0, builds: [] };
  const only = (process.env.REAL_CORPUS_PRODUCTS ?? '').split(',').filter(Boolean);
  log('building the real-package corpus (benchmarks/extraction/real)');
  const builds = await buildAll(only, log);
  const real = loadReal(new Set(shared.map((p) => p.sample.product)));
  return {
    open: await prepareSamples(real.open),
    sealed: await prepareSamples(real.sealed),
    openProducts: real.openProducts,
    sealedProducts: real.sealedProducts.length,
    builds,
  };
};
