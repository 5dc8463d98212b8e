import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitOf, type Label, type Sample } from '../corpus.js';
import { cacheDir } from './packages.js';
import { isSealed } from './seal.js';

/** A label of the real corpus: the shared schema plus the product and template it names. */
export type RealLabel = Label & { readonly product: string; readonly template: string };

/** The products rendered in the cache, by name. */
export const builtProducts = (dir = join(cacheDir(), 'corpus')): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((p) => existsSync(join(dir, p, 'labels.jsonl'))).sort() : [];

/** One product's samples, read from the cache. */
export const loadProduct = (product: string, dir = join(cacheDir(), 'corpus')): Sample[] =>
  readFileSync(join(dir, product, 'labels.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RealLabel)
    .map((label) => ({ label, raw: readFileSync(join(dir, product, 'messages', label.file)), product, template: label.template, split: splitOf(product, label.template) }));

/**
 * The real corpus split by the sealed rule. Open samples may be read and printed; sealed ones
 * only counted and scored in aggregate.
 */
export const loadReal = (sharedProducts: ReadonlySet<string>): { open: Sample[]; sealed: Sample[]; sealedProducts: string[]; openProducts: string[] } => {
  const products = builtProducts();
  const sealedProducts = products.filter((p) => isSealed(p, sharedProducts));
  const openProducts = products.filter((p) => !isSealed(p, sharedProducts));
  return { open: openProducts.flatMap((p) => loadProduct(p)), sealed: sealedProducts.flatMap((p) => loadProduct(p)), sealedProducts, openProducts };
};
