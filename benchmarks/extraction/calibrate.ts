/**
 * Fits the calibration constants (A, B of core/src/extraction/calibration.ts) on the development
 * split only, and reports the log-loss and ECE they give on both splits. Run:
 *   node --import=tsx --conditions=@ephemail/source benchmarks/extraction/calibrate.ts
 */
import { confidences, scoreCandidates } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { loadCorpus, type Sample } from './corpus.js';

interface Row {
  readonly scores: number[];
  /** Whether the top-scored candidate is the labelled secret. */
  readonly topCorrect: boolean;
  readonly split: Sample['split'];
}

const rows = async (): Promise<Row[]> => {
  const parser = createPostalMimeMailParser();
  const out: Row[] = [];
  for (const s of loadCorpus()) {
    const parsed = await parser.parse(s.raw);
    if (!parsed.ok) continue;
    const scored = scoreCandidates(parsed.message);
    const top = scored[0];
    if (!top) continue;
    out.push({ scores: scored.map((c) => c.score), topCorrect: top.type === s.label.kind && top.value === s.label.value, split: s.split });
  }
  return out;
};

const topConf = (r: Row, A: number, B: number): number => confidences(r.scores, { A, B })[0] ?? 0;

const logLoss = (data: readonly Row[], A: number, B: number): number =>
  data.reduce((sum, r) => {
    const p = Math.min(1 - 1e-6, Math.max(1e-6, topConf(r, A, B)));
    return sum - Math.log(r.topCorrect ? p : 1 - p);
  }, 0) / data.length;

const ece = (data: readonly Row[], A: number, B: number): number => {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, conf: 0, hits: 0 }));
  for (const r of data) {
    const c = topConf(r, A, B);
    const bin = bins[Math.min(9, Math.floor(c * 10))];
    if (!bin) continue;
    bin.n += 1;
    bin.conf += c;
    bin.hits += r.topCorrect ? 1 : 0;
  }
  return bins.reduce((sum, b) => (b.n === 0 ? sum : sum + (b.n / data.length) * Math.abs(b.hits / b.n - b.conf / b.n)), 0);
};

// The development split is nearly separable, so plain maximum likelihood would drive A to
// infinity; a Gaussian prior around the hand-set scale (A = 1, B = 0) keeps the fit honest.
const PRIOR = 0.02;

const fit = (dev: readonly Row[]): { A: number; B: number } => {
  let best = { A: 1, B: 0, loss: Number.POSITIVE_INFINITY };
  for (let A = 0.3; A <= 3.001; A += 0.05) {
    for (let B = -4; B <= 4.001; B += 0.05) {
      const loss = logLoss(dev, A, B) + PRIOR * ((A - 1) ** 2 + B ** 2);
      if (loss < best.loss) best = { A, B, loss };
    }
  }
  return { A: Math.round(best.A * 100) / 100, B: Math.round(best.B * 100) / 100 };
};

const data = await rows();
const dev = data.filter((r) => r.split === 'dev');
const held = data.filter((r) => r.split === 'heldout');
const { A, B } = fit(dev);
console.log(`fitted on ${dev.length} development messages: A = ${A}, B = ${B}`);
for (const [name, set] of [['dev', dev], ['heldout', held]] as const) {
  console.log(`${name}: log-loss ${logLoss(set, A, B).toFixed(4)}, ECE ${ece(set, A, B).toFixed(4)} (unfitted ECE ${ece(set, 1, 0).toFixed(4)})`);
}
