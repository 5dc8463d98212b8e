/**
 * Leave-one-product-out evaluation. For every product of the corpus, the model is fitted on the
 * other products' messages only, and the engine runs with that model on the held-out product's
 * messages. The product (the `<product>` prefix of a file name) is the unit: every template and
 * language of a product is unseen in its fold. Hand-written rules (signals, shapes, lexicons) are
 * the same in every fold; docs/extraction.md says where each came from.
 */
import { extractWith, scoreCandidates, type Model, type ParsedMessage } from '@ephemail/core';
import type { Sample } from './corpus.js';
import { fitCalibrated } from './calibrate.js';
import type { FitOptions, TrainingRow } from './fit.js';
import { judge, metrics, table, type Metrics, type Outcome } from './metrics.js';

/** A corpus message parsed once, with what the fit needs. */
export interface Prepared {
  readonly sample: Sample;
  readonly message: ParsedMessage | undefined;
  readonly row: TrainingRow;
}

/** The fit's row for a message: its candidates and the index of the labelled one (-1: none). */
export const trainingRow = (sample: Sample, message: ParsedMessage | undefined): TrainingRow => {
  const candidates = message === undefined ? [] : scoreCandidates(message);
  const { kind, value } = sample.label;
  const target = kind === 'none' ? -1 : candidates.findIndex((c) => c.type === kind && c.value === value);
  const secrets = [...(kind === 'none' ? [] : [{ kind, value }]), ...(sample.label.also ?? [])];
  const positives = candidates.flatMap((c, i) => (secrets.some((s) => s.kind === c.type && s.value === c.value) ? [i] : []));
  return { candidates, target, positives };
};

/** An outcome with the facts the tables group by. */
export type Judged = Outcome & { readonly product: string; readonly split: Sample['split'] };

/** Runs the engine under `model` on the given messages. */
export const evaluateWith = (model: Model, prepared: readonly Prepared[]): Judged[] => {
  const run = extractWith(model);
  return prepared.map((p) => {
    const found = p.message === undefined ? undefined : run(p.message);
    return { ...judge(p.sample.label, found?.top, found?.candidates), product: p.sample.product, split: p.sample.split };
  });
};

/** The training rows grouped by product, products in name order. */
export const byProduct = (prepared: readonly Prepared[]): TrainingRow[][] => {
  const products = [...new Set(prepared.map((p) => p.sample.product))].sort();
  return products.map((product) => prepared.filter((p) => p.sample.product === product).map((p) => p.row));
};

// Folds of the calibration inside each leave-one-product-out fold: product groups rather than
// single products, so a run costs 24 × 5 fits instead of 24 × 24.
const INNER_FOLDS = 4;

/**
 * Every product's messages judged under the model fitted without that product, and the fold
 * models. The fold's calibration is fitted out of fold too, on the other products only.
 */
export const leaveOneProductOut = (prepared: readonly Prepared[], options: Partial<FitOptions> = {}): { outcomes: Judged[]; models: Record<string, Model> } => {
  const products = [...new Set(prepared.map((p) => p.sample.product))].sort();
  const outcomes: Judged[] = [];
  const models: Record<string, Model> = {};
  for (const product of products) {
    const model = fitCalibrated(byProduct(prepared.filter((p) => p.sample.product !== product)), options, INNER_FOLDS);
    models[product] = model;
    outcomes.push(...evaluateWith(model, prepared.filter((p) => p.sample.product === product)));
  }
  return { outcomes, models };
};

/** The macro average over products: each metric averaged over the products where it is defined. */
export interface Macro {
  readonly products: number;
  readonly accuracy: number;
  readonly false_positive_rate: number;
  readonly recall_at_0_5: number;
  readonly ece: number;
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export const macro = (byProduct: Readonly<Record<string, Metrics>>): Macro => {
  const all = Object.values(byProduct);
  const withPositives = all.filter((m) => m.positives > 0);
  return {
    products: all.length,
    accuracy: mean(withPositives.map((m) => m.accuracy)),
    false_positive_rate: mean(all.filter((m) => m.negatives > 0).map((m) => m.false_positive_rate)),
    recall_at_0_5: mean(withPositives.map((m) => m.recall_at_0_5)),
    ece: mean(all.map((m) => m.ece)),
  };
};

/** The language (among those with positives) with the lowest accuracy. */
export const worstLanguage = (byLanguage: Readonly<Record<string, Metrics>>): { lang: string; accuracy: number; positives: number } => {
  let worst = { lang: '', accuracy: Number.POSITIVE_INFINITY, positives: 0 };
  for (const [lang, m] of Object.entries(byLanguage)) if (m.positives > 0 && (m.accuracy < worst.accuracy || (m.accuracy === worst.accuracy && m.positives < worst.positives))) worst = { lang, accuracy: m.accuracy, positives: m.positives };
  return worst;
};

/** The report of a set of outcomes: whole, per product, per language, per kind, and the macro average. */
export const report = (outcomes: readonly Judged[]) => {
  const byProduct = table(outcomes, (o) => (o as Judged).product);
  const byLanguage = table(outcomes, (o) => o.label.lang);
  return {
    all: metrics(outcomes),
    macro_over_products: macro(byProduct),
    worst_language: worstLanguage(byLanguage),
    by_product: byProduct,
    by_language: byLanguage,
    by_kind: table(outcomes, (o) => o.label.kind),
  };
};
