import type { Issue } from '../domain/errors.js';
import { normalizeHostname } from '../domains/hostname.js';
import type { ExtractionConfigFile, ParameterSpec, TemplateFile } from './template-file.js';
import { PLACEHOLDER } from './template-file.js';

/** A deployment's parameters once checked: every declared one that has a value. */
export type ParameterValues = Readonly<Record<string, string | number | boolean>>;

const DEFAULT_MAX_LENGTH = 100;

/** What is wrong with one value for its parameter, or `undefined` when it fits. */
const problemOf = (spec: ParameterSpec, value: unknown): string | undefined => {
  if (spec.type === 'boolean') return typeof value === 'boolean' ? undefined : 'must be a boolean';
  if (spec.type === 'integer') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return 'must be an integer';
    if (spec.minimum !== undefined && value < spec.minimum) return `must be at least ${spec.minimum}`;
    if (spec.maximum !== undefined && value > spec.maximum) return `must be at most ${spec.maximum}`;
    return undefined;
  }
  if (typeof value !== 'string') return 'must be a string';
  if (value.trim().length === 0) return 'must not be empty';
  const max = spec.max_length ?? DEFAULT_MAX_LENGTH;
  if (value.length > max) return `must be at most ${max} characters`;
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return 'must not hold control characters';
  if (spec.format === 'hostname' && !normalizeHostname(value).ok) return 'must be a DNS name such as example.com';
  return undefined;
};

/**
 * Checks a deployment's parameters against the template's: every required one present, no
 * unknown key, each of its declared type and bounds; defaults fill the optional ones. Answers the
 * values, or one issue per parameter at fault (`body.parameters.<name>`), all at once.
 */
export const checkParameters = (template: Pick<TemplateFile, 'parameters'>, given: Readonly<Record<string, unknown>>): { ok: true; values: ParameterValues } | { ok: false; issues: Issue[] } => {
  const issues: Issue[] = [];
  const values: Record<string, string | number | boolean> = {};
  const declared = new Set(template.parameters.map((p) => p.name));
  for (const key of Object.keys(given)) {
    if (!declared.has(key)) issues.push({ path: `body.parameters.${key}`, message: `unknown parameter; this template takes ${[...declared].join(', ') || 'none'}` });
  }
  for (const spec of template.parameters) {
    const value = given[spec.name];
    if (value === undefined) {
      if (spec.default !== undefined) values[spec.name] = spec.default;
      else if (spec.required) issues.push({ path: `body.parameters.${spec.name}`, message: `required ${spec.type} is missing` });
      continue;
    }
    const problem = problemOf(spec, value);
    if (problem === undefined) values[spec.name] = value as string | number | boolean;
    else issues.push({ path: `body.parameters.${spec.name}`, message: `${problem} (${spec.type})` });
  }
  return issues.length === 0 ? { ok: true, values } : { ok: false, issues };
};

/**
 * A value as it goes into a pattern: numbers as digits, text with every syntax character escaped
 * (the `u` flag refuses other escapes, so `-` stays as it is: placeholders stand outside classes).
 */
const literal = (value: string | number | boolean): string => (typeof value === 'string' ? value.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&') : String(value));

const fill = (pattern: string | undefined, values: ParameterValues): string | undefined =>
  pattern?.replace(PLACEHOLDER, (_whole, key: string) => literal(values[key] ?? ''));

/** The template's `extraction_config` for these values: placeholders replaced, patterns literal-safe. */
export const renderConfig = (config: ExtractionConfigFile, values: ParameterValues): ExtractionConfigFile => {
  const rendered: ExtractionConfigFile = { ...config };
  for (const field of ['sender_pattern', 'subject_pattern', 'code_pattern'] as const) {
    const filled = fill(config[field], values);
    if (filled !== undefined) rendered[field] = filled;
  }
  return rendered;
};

/** Values a catalogue check renders patterns with: defaults, else the smallest integer or a sample word. */
export const sampleValues = (template: Pick<TemplateFile, 'parameters'>): ParameterValues =>
  Object.fromEntries(
    template.parameters.map((p) => [p.name, p.default ?? (p.type === 'integer' ? (p.minimum ?? 1) : p.type === 'boolean' ? true : p.format === 'hostname' ? 'example.com' : 'Example')]),
  );
