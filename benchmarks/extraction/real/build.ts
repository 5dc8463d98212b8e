/**
 * Builds the real-package corpus: fetches each product's packages (apt-get download, npm pack)
 * into the cache, renders its mail in every language it ships and writes
 * `<cache>/corpus/<product>/{messages/*.eml,labels.jsonl,summary.json}`. Run from the repository:
 *   node --import=tsx --conditions=@ephemail/source benchmarks/extraction/real/build.ts [product ...]
 * Prints counts only (sealed products are built like the others but never shown).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { composeMessage, labelOf, secretShown } from './compose.js';
import { cacheDir, ensurePackage, fetchedFile } from './packages.js';
import { ADAPTERS } from './products/index.js';
import { rngFor } from './random.js';
import type { Adapter } from './types.js';

/** The seed every render's stream derives from; change it to draw a new corpus. */
export const SEED = 'real-corpus-1';

export interface BuildSummary {
  readonly product: string;
  readonly packages: readonly string[];
  readonly rendered: number;
  readonly written: number;
  /** Renders dropped because a labelled value did not occur in the message (an adapter bug). */
  readonly dropped: number;
  readonly languages: number;
  readonly error?: string;
}

const slug = (s: string): string => s.replace(/[^A-Za-z0-9_.-]+/g, '_');

/** Renders one product into the cache and answers its counts. */
export const buildProduct = async (adapter: Adapter, reps = Number(process.env.REAL_CORPUS_REPS ?? 2)): Promise<BuildSummary> => {
  const { product } = adapter;
  const dir = join(cacheDir(), 'corpus', product);
  const roots = adapter.packages.map(ensurePackage);
  const rendered = await adapter.render({ roots, rng: (key) => rngFor(`${SEED}:${product}:${key}`), reps });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'messages'), { recursive: true });
  const counters = new Map<string, number>();
  const labels: string[] = [];
  let dropped = 0;
  for (const r of rendered) {
    if (![r.secret, ...(r.also ?? [])].every((s) => s === undefined || secretShown(r, s))) {
      dropped += 1;
      continue;
    }
    const stem = `${slug(product)}--${slug(r.template)}--${slug(r.lang)}`;
    const n = (counters.get(stem) ?? 0) + 1;
    counters.set(stem, n);
    const file = `${stem}--${n}.eml`;
    writeFileSync(join(dir, 'messages', file), await composeMessage(r, product, rngFor(`${SEED}:${product}:mime:${file}`)));
    labels.push(JSON.stringify(labelOf(r, product, file)));
  }
  writeFileSync(join(dir, 'labels.jsonl'), labels.length > 0 ? `${labels.join('\n')}\n` : '');
  const summary: BuildSummary = {
    product,
    packages: adapter.packages.map(fetchedFile),
    rendered: rendered.length,
    written: labels.length,
    dropped,
    languages: new Set(rendered.map((r) => r.lang)).size,
  };
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
};

/** Builds the named products (all when none is named); a product that fails is reported and skipped. */
export const buildAll = async (names: readonly string[] = [], log: (line: string) => void = console.log): Promise<BuildSummary[]> => {
  const chosen = names.length === 0 ? ADAPTERS : ADAPTERS.filter((a) => names.includes(a.product));
  const unknown = names.filter((n) => !ADAPTERS.some((a) => a.product === n));
  if (unknown.length > 0) throw new Error(`no adapter for: ${unknown.join(', ')} (have: ${ADAPTERS.map((a) => a.product).join(', ')})`);
  const out: BuildSummary[] = [];
  for (const adapter of chosen) {
    try {
      const s = await buildProduct(adapter);
      log(`${s.product.padEnd(20)} ${String(s.written).padStart(5)} messages  ${String(s.languages).padStart(3)} languages  ${s.dropped} dropped`);
      out.push(s);
    } catch (error) {
      log(`${adapter.product.padEnd(20)} failed: ${(error as Error).message.split('\n')[0]}`);
      out.push({ product: adapter.product, packages: [], rendered: 0, written: 0, dropped: 0, languages: 0, error: (error as Error).message });
    }
  }
  return out;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`real-package corpus in ${cacheDir()}`);
  const summaries = await buildAll(process.argv.slice(2));
  const ok = summaries.filter((s) => s.error === undefined);
  console.log(`${ok.length} products, ${ok.reduce((a, s) => a + s.written, 0)} messages`);
  if (ok.length < summaries.length) process.exitCode = 1;
}
