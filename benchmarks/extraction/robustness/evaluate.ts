/**
 * Runs every variant over a part of the corpus: each mail transformed with its own seeded stream,
 * written as bytes, parsed by the host's parser and extracted, and its answer judged against the
 * transformed label. A transformed mail that no longer shows its expected secret, or still shows
 * one it was to lose, is the instrument's failure, not the engine's: it is counted as dropped.
 */
import { extract, type Candidate, type ParsedMessage } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import type { Prepared } from '../lopo.js';
import { rngFor } from '../real/random.js';
import { composeMail } from './compose.js';
import { caseOf, expectOf, shows, type Case, type Expect } from './mail.js';
import type { Variant } from './variant.js';

/** The seed every transformation's stream derives from; change it to draw new variants. */
export const SEED = 'robustness-1';

/** Right: a positive's top candidate is the expected secret at ≥ 0.5; a negative has none at ≥ 0.5. */
export const isRight = (e: Expect, top: Candidate | undefined): boolean => {
  const sure = top !== undefined && top.confidence >= 0.5;
  if (e.secret === undefined) return !sure;
  return sure && top.type === e.secret.kind && (top.value === e.secret.value || e.alternatives.includes(top.value));
};

/** Counts for one variant (or a sum of variants) over one part of the corpus. */
export interface Tally {
  /** Mails transformed, parsed and checked. */
  n: number;
  /** Of them, those whose transformed label holds a secret. */
  positives: number;
  rightBefore: number;
  rightAfter: number;
  /** Right before and after. */
  kept: number;
  /** Positives (after) with no candidate at all. */
  nothingOnPositive: number;
  notApplicable: number;
  /** Transformed mails that failed the instrument's own check (the label could not be kept). */
  dropped: number;
}

export const emptyTally = (): Tally => ({ n: 0, positives: 0, rightBefore: 0, rightAfter: 0, kept: 0, nothingOnPositive: 0, notApplicable: 0, dropped: 0 });

export const addTally = (a: Tally, b: Tally): Tally => ({
  n: a.n + b.n,
  positives: a.positives + b.positives,
  rightBefore: a.rightBefore + b.rightBefore,
  rightAfter: a.rightAfter + b.rightAfter,
  kept: a.kept + b.kept,
  nothingOnPositive: a.nothingOnPositive + b.nothingOnPositive,
  notApplicable: a.notApplicable + b.notApplicable,
  dropped: a.dropped + b.dropped,
});

/** One broken answer of an open mail, kept for reading what failed. */
export interface Failure {
  readonly variant: string;
  readonly file: string;
  readonly wasRight: boolean;
  readonly expected: string;
  readonly got: string;
}

/** The untransformed mails' own figures: the baseline every variant is read against. */
export interface Baseline {
  messages: number;
  positives: number;
  right: number;
  nothingOnPositive: number;
}

const fnv = (s: string): number => {
  let h = 0x811c9dc5;
  for (const ch of Buffer.from(s, 'utf8')) h = Math.imul(h ^ ch, 0x01000193) >>> 0;
  return h;
};

/** True when the mail is in the variant's deterministic sample (`share` of all mails). */
export const sampled = (variant: Variant, file: string, share: number): boolean => share >= 1 || fnv(`${SEED}:${variant.family}:${variant.name}:${file}`) / 2 ** 32 < share;

/** True when the parsed mail still carries the label: the expected secret shown, removed values gone. */
export const labelHolds = (m: ParsedMessage, c: Case): boolean =>
  (c.expect.secret === undefined || [c.expect.secret.value, ...c.expect.alternatives].some((v) => shows(m, v))) && (c.gone ?? []).every((v) => !shows(m, v));

const describe = (top: Candidate | undefined): string => (top === undefined ? 'nothing' : `${top.type} ${top.value} @${top.confidence.toFixed(2)}`);

export interface PartResult {
  readonly baseline: Baseline;
  readonly tallies: Map<Variant, Tally>;
  /** Open part only; empty for the sealed part. */
  readonly failures: Failure[];
}

/** Every variant over the prepared mails of one part. Failures are recorded only when `open`. */
export const evaluatePart = async (prepared: readonly Prepared[], variants: readonly Variant[], options: { open: boolean; share: number }): Promise<PartResult> => {
  const parser = createPostalMimeMailParser();
  const baseline: Baseline = { messages: 0, positives: 0, right: 0, nothingOnPositive: 0 };
  const tallies = new Map(variants.map((v) => [v, emptyTally()] as const));
  const failures: Failure[] = [];
  for (const p of prepared) {
    if (p.message === undefined) continue;
    const expect = expectOf(p.sample);
    const before = extract(p.message).top;
    const wasRight = isRight(expect, before);
    baseline.messages += 1;
    if (expect.secret !== undefined) baseline.positives += 1;
    if (wasRight) baseline.right += 1;
    if (expect.secret !== undefined && before === undefined) baseline.nothingOnPositive += 1;
    const base = caseOf(p.sample, p.message);
    for (const variant of variants) {
      const t = tallies.get(variant) ?? emptyTally();
      if (!sampled(variant, base.file, options.share)) continue;
      const rng = rngFor(`${SEED}:${variant.family}:${variant.name}:${base.file}`);
      const out = variant.apply(base, rng);
      if (out === undefined) {
        t.notApplicable += 1;
        continue;
      }
      const parsed = await parser.parse(composeMail(out.mail, rng));
      if (!parsed.ok || !labelHolds(parsed.message, out)) {
        t.dropped += 1;
        continue;
      }
      const after = extract(parsed.message).top;
      const right = isRight(out.expect, after);
      t.n += 1;
      if (out.expect.secret !== undefined) t.positives += 1;
      if (wasRight) t.rightBefore += 1;
      if (right) t.rightAfter += 1;
      if (right && wasRight) t.kept += 1;
      if (out.expect.secret !== undefined && after === undefined) t.nothingOnPositive += 1;
      if (options.open && !right) failures.push({ variant: `${variant.family} / ${variant.name}`, file: base.file, wasRight, expected: out.expect.secret === undefined ? 'nothing at 0.5' : `${out.expect.secret.kind} ${out.expect.secret.value}`, got: describe(after) });
    }
  }
  return { baseline, tallies, failures };
};
