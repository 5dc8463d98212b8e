import type { Candidate } from '@ephemail/core';
import type { Label } from './corpus.js';

/** The engine's answer for one labelled message. */
export interface Outcome {
  readonly label: Label;
  readonly top: Candidate | undefined;
  /** Top candidate matches the label exactly (type and value). */
  readonly correct: boolean;
  /** Top candidate matches the label or one of its secondary secrets. */
  readonly acceptable: boolean;
  /** For a message with a secondary secret: every secret of it is a candidate at confidence ≥ 0.5. */
  readonly allSecretsSure?: boolean;
}

/** Accuracy figures over a set of outcomes. */
export interface Metrics {
  readonly messages: number;
  readonly positives: number;
  readonly negatives: number;
  /** Top-1 exact accuracy on positives, whatever the confidence. */
  readonly accuracy: number;
  /** Top-1 matches the label or its secondary secret, on positives. */
  readonly accuracy_any_secret: number;
  /** Negatives whose top candidate has confidence ≥ 0.5. */
  readonly false_positive_rate: number;
  /** Positives whose top candidate is right with confidence ≥ 0.5. */
  readonly recall_at_0_5: number;
  /** Expected calibration error of the top candidate's confidence, 10 equal bins. */
  readonly ece: number;
  /** Link kind right, among correct magic links. */
  readonly link_kind_accuracy: number | null;
  /** Messages with a code and a link (a secondary secret), and the share where both are candidates at ≥ 0.5. */
  readonly two_secrets: number;
  readonly both_at_0_5: number | null;
}

const ratio = (n: number, d: number): number => (d === 0 ? 0 : n / d);

/** Judges one message: exact type and value, links compared as decoded strings. */
export const judge = (label: Label, top: Candidate | undefined, candidates: readonly Candidate[] = top ? [top] : []): Outcome => {
  const matches = (kind: string, value: string | null): boolean => top !== undefined && top.type === kind && top.value === value;
  const correct = label.kind !== 'none' && matches(label.kind, label.value);
  const acceptable = correct || (label.kind !== 'none' && (label.also ?? []).some((a) => matches(a.kind, a.value)));
  const also = label.kind === 'none' ? [] : (label.also ?? []);
  if (also.length === 0) return { label, top, correct, acceptable };
  const sure = (kind: string, value: string | null): boolean => candidates.some((c) => c.type === kind && c.value === value && c.confidence >= 0.5);
  return { label, top, correct, acceptable, allSecretsSure: sure(label.kind, label.value) && also.every((a) => sure(a.kind, a.value)) };
};

/** ECE over messages that have a top candidate: Σ (bin size / n) · |accuracy − mean confidence|. */
export const ece = (outcomes: readonly Outcome[], bins = 10): number => {
  const scored = outcomes.filter((o) => o.top !== undefined);
  let total = 0;
  for (let b = 0; b < bins; b += 1) {
    const inBin = scored.filter((o) => Math.min(bins - 1, Math.floor((o.top?.confidence ?? 0) * bins)) === b);
    if (inBin.length === 0) continue;
    const acc = ratio(inBin.filter((o) => o.correct).length, inBin.length);
    const conf = ratio(inBin.reduce((a, o) => a + (o.top?.confidence ?? 0), 0), inBin.length);
    total += (inBin.length / scored.length) * Math.abs(acc - conf);
  }
  return total;
};

/** Every headline metric of the issue for one set of outcomes. */
export const metrics = (outcomes: readonly Outcome[]): Metrics => {
  const pos = outcomes.filter((o) => o.label.kind !== 'none');
  const neg = outcomes.filter((o) => o.label.kind === 'none');
  const links = pos.filter((o) => o.correct && o.label.kind === 'magic_link');
  const two = pos.filter((o) => o.allSecretsSure !== undefined);
  return {
    messages: outcomes.length,
    positives: pos.length,
    negatives: neg.length,
    accuracy: ratio(pos.filter((o) => o.correct).length, pos.length),
    accuracy_any_secret: ratio(pos.filter((o) => o.acceptable).length, pos.length),
    false_positive_rate: ratio(neg.filter((o) => (o.top?.confidence ?? 0) >= 0.5).length, neg.length),
    recall_at_0_5: ratio(pos.filter((o) => o.correct && (o.top?.confidence ?? 0) >= 0.5).length, pos.length),
    ece: ece(outcomes),
    link_kind_accuracy: links.length === 0 ? null : ratio(links.filter((o) => o.top?.link_kind === o.label.link_purpose).length, links.length),
    two_secrets: two.length,
    both_at_0_5: two.length === 0 ? null : ratio(two.filter((o) => o.allSecretsSure === true).length, two.length),
  };
};

/** Metrics per value of a grouping key (language, product). */
export const table = (outcomes: readonly Outcome[], key: (o: Outcome) => string): Record<string, Metrics> => {
  const groups = new Map<string, Outcome[]>();
  for (const o of outcomes) groups.set(key(o), [...(groups.get(key(o)) ?? []), o]);
  return Object.fromEntries([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, metrics(v)]));
};
