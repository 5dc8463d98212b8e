/**
 * The real corpus's side of the extraction benchmark: the sealed products judged by the model
 * fitted on every open message (aggregates only), the share of code-and-link mails where both
 * secrets are found, and the goals the figures are printed against.
 */
import { extractWith, type Model } from '@ephemail/core';
import { evaluateWith, report, type Prepared } from '../lopo.js';
import type { Metrics } from '../metrics.js';

/** The goals. */
export const GOALS = { accuracy: 0.95, false_positive_rate: 0.02, recall_at_0_5: 0.93, ece: 0.05, worst_language_accuracy: 0.9, both_secrets: 0.95 } as const;

/** True for a message that holds a code and a link (in its label and `also`). */
export const holdsCodeAndLink = (p: Prepared): boolean => {
  const kinds = new Set([p.sample.label.kind, ...(p.sample.label.also ?? []).map((a) => a.kind)]);
  return kinds.has('otp') && kinds.has('magic_link');
};

/**
 * Of the messages holding a code and a link, the share where both are candidates with confidence
 * ≥ 0.5 (`share`), and the share where both are among the candidates at any confidence
 * (`listed_share`). While confidences are one softmax over a message's candidates and "no secret"
 * (core/src/extraction/calibration.ts), two candidates cannot both reach 0.5 but at exactly 0.5.
 */
export const bothSecrets = (prepared: readonly Prepared[], modelOf: (p: Prepared) => Model) => {
  const mixed = prepared.filter(holdsCodeAndLink);
  let found = 0;
  let listed = 0;
  for (const p of mixed) {
    if (p.message === undefined) continue;
    const { candidates } = extractWith(modelOf(p))(p.message);
    const secrets = [{ kind: p.sample.label.kind, value: p.sample.label.value }, ...(p.sample.label.also ?? [])];
    const hit = (min: number): boolean => secrets.every((s) => candidates.some((c) => c.type === s.kind && c.value === s.value && c.confidence >= min));
    if (hit(0.5)) found += 1;
    if (hit(0)) listed += 1;
  }
  const share = (n: number): number => (mixed.length === 0 ? 0 : n / mixed.length);
  return { messages: mixed.length, both_found: found, share: share(found), both_listed: listed, listed_share: share(listed) };
};

/** The sealed part: judged by the model fitted on the open part; only aggregates leave this function. */
export const sealedReport = (sealed: readonly Prepared[], model: Model) => {
  const r = report(evaluateWith(model, sealed));
  const byKind: Record<string, Metrics> = r.by_kind;
  // Per-product and per-language rows stay inside: only their count and macro average leave.
  return {
    products: Object.keys(r.by_product).length,
    messages: sealed.length,
    languages: Object.keys(r.by_language).length,
    all: r.all,
    macro_over_products: r.macro_over_products,
    worst_language_accuracy: r.worst_language.accuracy === Number.POSITIVE_INFINITY ? null : r.worst_language.accuracy,
    by_kind: byKind,
    both_secrets: bothSecrets(sealed, () => model),
  };
};

const mark = (ok: boolean): string => (ok ? 'met' : 'NOT met');

/** The goal lines for one part of the corpus. */
export const goalLines = (name: string, m: Metrics, worstLanguage: number | null, both: { share: number; messages: number; listed_share: number }): string[] => [
  `goals, ${name}:`,
  `  accuracy        ${m.accuracy.toFixed(3)}  (>= ${GOALS.accuracy})  ${mark(m.accuracy >= GOALS.accuracy)}`,
  `  fpr on none     ${m.false_positive_rate.toFixed(3)}  (<= ${GOALS.false_positive_rate})  ${mark(m.false_positive_rate <= GOALS.false_positive_rate)}`,
  `  recall@0.5      ${m.recall_at_0_5.toFixed(3)}  (>= ${GOALS.recall_at_0_5})  ${mark(m.recall_at_0_5 >= GOALS.recall_at_0_5)}`,
  `  ece             ${m.ece.toFixed(3)}  (<= ${GOALS.ece})  ${mark(m.ece <= GOALS.ece)}`,
  `  worst language  ${worstLanguage === null ? 'n/a' : worstLanguage.toFixed(3)}  (>= ${GOALS.worst_language_accuracy})  ${mark(worstLanguage !== null && worstLanguage >= GOALS.worst_language_accuracy)}`,
  both.messages === 0
    ? `  both secrets    n/a: no mail of this part holds a code and a link`
    : `  both secrets    ${both.share.toFixed(3)} of ${both.messages}  (>= ${GOALS.both_secrets})  ${mark(both.share >= GOALS.both_secrets)}  (both among the candidates at any confidence: ${both.listed_share.toFixed(3)})`,
];
