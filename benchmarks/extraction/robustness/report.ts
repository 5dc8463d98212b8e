/**
 * The robustness figures of a part of the corpus, per variant, per family and overall, with the
 * goals they are read against, and their printed table. Only counts and shares leave here, so the
 * sealed part's report holds nothing about a product or a mail.
 */
import { addTally, emptyTally, type Baseline, type Failure, type PartResult, type Tally } from './evaluate.js';
import type { Variant } from './variant.js';

/** The issue's goals: per family, and for answering nothing on a positive. */
export const GOALS = { survival_per_family: 0.98, nothing_on_positive: 0.01 } as const;

const share = (n: number, d: number): number | null => (d === 0 ? null : Math.round((n / d) * 10000) / 10000);

/** The figures of one tally. */
export const figures = (t: Tally) => ({
  n: t.n,
  positives: t.positives,
  baseline: share(t.rightBefore, t.n),
  right_after: share(t.rightAfter, t.n),
  ratio_to_baseline: share(t.rightAfter, t.rightBefore),
  survived_of_right: share(t.kept, t.rightBefore),
  wrong_before: t.n - t.rightBefore,
  nothing_on_positive: share(t.nothingOnPositive, t.positives),
  nothing_on_positive_n: t.nothingOnPositive,
  not_applicable: t.notApplicable,
  dropped: t.dropped,
});
export type Figures = ReturnType<typeof figures>;

const meets = (f: Figures): boolean | null => (f.survived_of_right === null ? null : f.survived_of_right >= GOALS.survival_per_family);

/** The report of one part: baseline, overall (every family but the control), each family and its variants. */
export const partReport = (r: PartResult) => {
  const families = new Map<string, { total: Tally; variants: [Variant, Tally][] }>();
  for (const [v, t] of r.tallies) {
    const f = families.get(v.family) ?? { total: emptyTally(), variants: [] };
    f.total = addTally(f.total, t);
    f.variants.push([v, t]);
    families.set(v.family, f);
  }
  const overall = [...families.entries()].filter(([name]) => name !== 'control').reduce((acc, [, f]) => addTally(acc, f.total), emptyTally());
  const b: Baseline = r.baseline;
  return {
    baseline: { messages: b.messages, positives: b.positives, right: share(b.right, b.messages), nothing_on_positive: share(b.nothingOnPositive, b.positives) },
    overall: { ...figures(overall), nothing_on_positive_goal_met: (figures(overall).nothing_on_positive ?? 0) <= GOALS.nothing_on_positive },
    families: Object.fromEntries(
      [...families.entries()].map(([name, f]) => [
        name,
        {
          ...figures(f.total),
          goal_met: meets(figures(f.total)),
          variants: Object.fromEntries(f.variants.map(([v, t]) => [v.name, { does: v.does, ...figures(t) }])),
        },
      ]),
    ),
  };
};
export type PartReport = ReturnType<typeof partReport>;

/** Open part only: per family, the products with most answers broken (right untransformed, wrong after). */
export const brokenByProduct = (failures: readonly Failure[], productOf: (file: string) => string, top = 5): Record<string, [string, number][]> => {
  const counts = new Map<string, Map<string, number>>();
  for (const f of failures) {
    if (!f.wasRight) continue;
    const family = f.variant.split(' / ')[0] ?? f.variant;
    const byProduct = counts.get(family) ?? new Map<string, number>();
    byProduct.set(productOf(f.file), (byProduct.get(productOf(f.file)) ?? 0) + 1);
    counts.set(family, byProduct);
  }
  return Object.fromEntries([...counts.entries()].map(([family, m]) => [family, [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)]));
};

const pct = (x: number | null): string => (x === null ? '   n/a' : `${(x * 100).toFixed(1)}%`.padStart(6));

const line = (name: string, f: Figures): string =>
  `${name.padEnd(38)} ${String(f.n).padStart(5)}  ${pct(f.baseline)} ${pct(f.right_after)} ${pct(f.ratio_to_baseline)} ${pct(f.survived_of_right)} ${String(f.wrong_before).padStart(5)} ${pct(f.nothing_on_positive)} ${String(f.not_applicable).padStart(5)} ${String(f.dropped).padStart(4)}`;

/** The printed table of a part: each variant, each family with its goal, overall. */
export const printPart = (title: string, r: PartReport, log: (s: string) => void = console.log): void => {
  log(`\n${title}: ${r.baseline.messages} mails (${r.baseline.positives} with a secret), untransformed right ${pct(r.baseline.right)}, nothing on a positive ${pct(r.baseline.nothing_on_positive)}`);
  log(`${'family / variant'.padEnd(38)} ${'n'.padStart(5)}  ${'base'.padStart(6)} ${'after'.padStart(6)} ${'ratio'.padStart(6)} ${'kept'.padStart(6)} ${'wrong'.padStart(5)} ${'none+'.padStart(6)} ${'n/a'.padStart(5)} ${'drop'.padStart(4)}`);
  for (const [family, f] of Object.entries(r.families)) {
    for (const [variant, v] of Object.entries(f.variants)) log(line(`  ${family} / ${variant}`, v));
    log(`${line(family, f)}  ${f.goal_met === null ? '' : f.goal_met ? 'met' : 'NOT met'}`);
  }
  log(line('overall (control left out)', r.overall));
  log(`goals: kept >= ${GOALS.survival_per_family} in every family: ${Object.values(r.families).every((f) => f.goal_met !== false) ? 'met' : `NOT met (${Object.entries(r.families).filter(([, f]) => f.goal_met === false).map(([k]) => k).join(', ')})`}; nothing on a positive <= ${GOALS.nothing_on_positive * 100} %: ${r.overall.nothing_on_positive_goal_met ? 'met' : 'NOT met'} (${pct(r.overall.nothing_on_positive)})`);
};

export const LEGEND = [
  'base: right untransformed (a positive: the labelled secret at >= 0.5; a negative: nothing at >= 0.5), over the same mails',
  'after: right after the transformation (against the transformed label); ratio: after / base',
  'kept: right after, of the mails right untransformed (the goal); wrong: mails already wrong untransformed',
  'none+: positives (after) with no candidate at all; n/a: the variant does not apply; drop: the transformed mail lost its label (instrument)',
];
