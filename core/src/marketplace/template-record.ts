import type { ExtractionConfigFile, ParameterSpec, TemplateFile } from './template-file.js';

/**
 * A template version as stored: its file's definition, plus what every host shares about it:
 * deploy and outcome counts. The counts are changed only by `increment`, never by a sync.
 */
export interface TemplateRecord extends Omit<TemplateFile, 'version'> {
  /** The file's dotted `version` (a stored document's `version` is the store's compare-and-set counter). */
  readonly template_version: string;
  /** Listed in the catalogue: false once the version is deprecated. */
  readonly listed: boolean;
  /** SHA-256 of the file's definition: a sync rewrites the definition only when it changed. */
  readonly definition_hash: string;
  readonly synced_at: string;
  readonly deploy_count: number;
  /** Deployments whose identity got an extraction before it ended. */
  readonly outcomes_succeeded: number;
  /** Deployments whose identity ended (expired, squashed) without one. */
  readonly outcomes_failed: number;
  /** Sum over succeeded deployments of seconds from deployment to the extraction. */
  readonly duration_total_seconds: number;
}

/**
 * The weight, in deployments, of the author's `expected` figures: with no outcome yet the
 * template reports them as they are, and each real outcome moves the figure towards what
 * deployments show (after 3 outcomes they weigh half).
 */
export const PRIOR_WEIGHT = 3;

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** `success_rate`: (succeeded + w·expected) / (succeeded + failed + w). */
export const successRateOf = (t: Pick<TemplateRecord, 'outcomes_succeeded' | 'outcomes_failed' | 'expected'>): number =>
  round3((t.outcomes_succeeded + PRIOR_WEIGHT * t.expected.success_rate) / (t.outcomes_succeeded + t.outcomes_failed + PRIOR_WEIGHT));

/** `estimated_duration_seconds`: (Σ seconds of succeeded + w·expected) / (succeeded + w), rounded. */
export const estimatedDurationOf = (t: Pick<TemplateRecord, 'outcomes_succeeded' | 'duration_total_seconds' | 'expected'>): number =>
  Math.max(1, Math.round((t.duration_total_seconds + PRIOR_WEIGHT * t.expected.duration_seconds) / (t.outcomes_succeeded + PRIOR_WEIGHT)));

/** A parameter as the API shows it: the spec's fields plus its bounds when it has some. */
const parameterView = (p: ParameterSpec) => ({
  name: p.name,
  type: p.type,
  required: p.required,
  description: p.description,
  ...(p.default === undefined ? {} : { default: p.default }),
  ...(p.minimum === undefined ? {} : { minimum: p.minimum }),
  ...(p.maximum === undefined ? {} : { maximum: p.maximum }),
  ...(p.type === 'string' ? { max_length: p.max_length ?? 100 } : {}),
  ...(p.format === undefined ? {} : { format: p.format }),
});

/** A template in the list. */
export const templateSummaryOf = (t: TemplateRecord) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  category: t.category,
  use_case: t.use_case,
  version: t.template_version,
  parameters: t.parameters.map(parameterView),
  estimated_duration_seconds: estimatedDurationOf(t),
  success_rate: successRateOf(t),
  deprecated: t.deprecated === undefined ? null : { since: t.deprecated.since, reason: t.deprecated.reason, replaced_by: t.deprecated.replaced_by ?? null },
});

/** A template's detail: the summary with its `extraction_config` (placeholders as written) and `deploy_count`. */
export const templateViewOf = (t: TemplateRecord) => ({
  ...templateSummaryOf(t),
  extraction_config: configView(t.extraction_config),
  deploy_count: t.deploy_count,
});

/** Every field of `extraction_config`, absent patterns as `null`. */
export const configView = (c: ExtractionConfigFile) => ({
  sender_pattern: c.sender_pattern ?? null,
  subject_pattern: c.subject_pattern ?? null,
  extraction_type: c.extraction_type,
  code_pattern: c.code_pattern ?? null,
  poll_interval_seconds: c.poll_interval_seconds,
  max_wait_seconds: c.max_wait_seconds,
});

export type TemplateSummary = ReturnType<typeof templateSummaryOf>;
export type TemplateView = ReturnType<typeof templateViewOf>;
