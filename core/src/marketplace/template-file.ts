import { z } from 'zod';

export const TEMPLATE_CATEGORIES = ['social', 'developer', 'ecommerce', 'finance', 'productivity'] as const;
export const TEMPLATE_USE_CASES = ['signup', 'password_reset', 'two_factor', 'invite'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export type TemplateUseCase = (typeof TEMPLATE_USE_CASES)[number];

/** `tmpl_<slug>_v<major>`: a breaking change of a template is a new file with the next major. */
export const TEMPLATE_ID = /^tmpl_[a-z0-9]+(?:_[a-z0-9]+)*_v[1-9][0-9]*$/;

/** `{{name}}` in a pattern of `extraction_config`: replaced by the parameter's value, escaped. */
export const PLACEHOLDER = /\{\{([a-z][a-z0-9_]*)\}\}/g;

const name = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be snake_case, at most 40 characters');

/** One parameter a deployment passes: the spec's `{name, type, required, description, default?}` plus bounds. */
export const ParameterSpec = z
  .strictObject({
    name,
    type: z.enum(['string', 'integer', 'boolean']),
    required: z.boolean(),
    description: z.string().min(1).max(300),
    default: z.union([z.string(), z.number().int(), z.boolean()]).optional(),
    /** Integers: the smallest and largest value accepted. */
    minimum: z.number().int().optional(),
    maximum: z.number().int().optional(),
    /** Strings: the longest value accepted (default 100), and `hostname` for a DNS name. */
    max_length: z.number().int().min(1).max(253).optional(),
    format: z.enum(['hostname', 'text']).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.default !== undefined && typeof p.default !== (p.type === 'integer' ? 'number' : p.type)) ctx.addIssue({ code: 'custom', message: `default of ${p.name} must be a ${p.type}` });
    if (p.type !== 'integer' && (p.minimum !== undefined || p.maximum !== undefined)) ctx.addIssue({ code: 'custom', message: `${p.name}: minimum/maximum apply to integers only` });
    if (p.type !== 'string' && (p.max_length !== undefined || p.format !== undefined)) ctx.addIssue({ code: 'custom', message: `${p.name}: max_length/format apply to strings only` });
  });
export type ParameterSpec = z.infer<typeof ParameterSpec>;

const pattern = z.string().min(1).max(500);

/** `extraction_config` as written in a template file: patterns may hold `{{parameter}}` placeholders. */
export const ExtractionConfigFile = z.strictObject({
  sender_pattern: pattern.optional(),
  subject_pattern: pattern.optional(),
  extraction_type: z.enum(['otp', 'magic_link', 'auto']),
  code_pattern: pattern.optional(),
  poll_interval_seconds: z.number().int().min(1).max(60),
  max_wait_seconds: z.number().int().min(10).max(3600),
});
export type ExtractionConfigFile = z.infer<typeof ExtractionConfigFile>;

/** One template version, as kept in `core/marketplace/templates/<id>.json`. */
export const TemplateFile = z
  .strictObject({
    id: z.string().regex(TEMPLATE_ID, 'must be tmpl_<slug>_v<major>'),
    name: z.string().min(1).max(80),
    description: z.string().min(1).max(500),
    category: z.enum(TEMPLATE_CATEGORIES),
    use_case: z.enum(TEMPLATE_USE_CASES),
    /** Dotted `major.minor.patch`; the major is the one in the id. */
    version: z.string().regex(/^[1-9][0-9]*\.[0-9]+\.[0-9]+$/, 'must be a dotted major.minor.patch version'),
    /** Set when the version must no longer be deployed: deploys answer 410 `template_deprecated`. */
    deprecated: z.strictObject({ since: z.iso.date(), reason: z.string().min(1).max(300), replaced_by: z.string().regex(TEMPLATE_ID).optional() }).optional(),
    parameters: z.array(ParameterSpec).max(12),
    extraction_config: ExtractionConfigFile,
    /** What the template's author expects before any deployment has an outcome (the prior). */
    expected: z.strictObject({ success_rate: z.number().min(0).max(1), duration_seconds: z.number().int().min(1).max(3600) }),
  })
  .superRefine((t, ctx) => {
    if (t.id.slice(t.id.lastIndexOf('_v') + 2) !== t.version.split('.')[0]) ctx.addIssue({ code: 'custom', path: ['version'], message: `major version must be the id's (${t.id})` });
    const declared = new Map(t.parameters.map((p) => [p.name, p]));
    if (declared.size !== t.parameters.length) ctx.addIssue({ code: 'custom', path: ['parameters'], message: 'parameter names must be unique' });
    const ttl = declared.get('ttl_hours');
    if (ttl !== undefined && (ttl.type !== 'integer' || (ttl.minimum ?? 0) < 1 || (ttl.maximum ?? Infinity) > 720)) ctx.addIssue({ code: 'custom', path: ['parameters'], message: 'ttl_hours must be an integer parameter with minimum ≥ 1 and maximum ≤ 720' });
    for (const field of ['sender_pattern', 'subject_pattern', 'code_pattern'] as const) {
      for (const [, used] of (t.extraction_config[field] ?? '').matchAll(PLACEHOLDER)) {
        const p = declared.get(used!);
        if (p === undefined) ctx.addIssue({ code: 'custom', path: ['extraction_config', field], message: `{{${used}}} names no parameter` });
        else if (p.type === 'boolean') ctx.addIssue({ code: 'custom', path: ['extraction_config', field], message: `{{${used}}} is a boolean and cannot be part of a pattern` });
        else if (!p.required && p.default === undefined) ctx.addIssue({ code: 'custom', path: ['extraction_config', field], message: `{{${used}}} is optional without a default` });
      }
    }
  });
export type TemplateFile = z.infer<typeof TemplateFile>;
