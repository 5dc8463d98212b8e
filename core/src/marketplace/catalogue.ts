import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CoreDeps } from '../deps.js';
import { iso } from '../domain/time.js';
import { ExtractionRulesSchema } from '../extraction/rules.js';
import { C } from '../store/collections.js';
import { renderConfig, sampleValues } from './parameters.js';
import { TemplateFile } from './template-file.js';
import type { TemplateRecord } from './template-record.js';

/** The catalogue shipped with the package: `core/marketplace/templates/*.json`, one file per template version. */
export const DEFAULT_CATALOGUE_DIR = fileURLToPath(new URL('../../marketplace/templates/', import.meta.url));

/** A catalogue that cannot be served: every problem found, one line each, file by file. */
export class CatalogueError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the template catalogue is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'CatalogueError';
  }
}

/** Problems of one parsed file beyond its schema: name, and the patterns its parameters make. */
const problemsOf = (file: string, t: TemplateFile): string[] => {
  const problems: string[] = [];
  if (file !== `${t.id}.json`) problems.push(`${file}: a template's file is named after its id (${t.id}.json)`);
  const rules = renderConfig(t.extraction_config, sampleValues(t));
  const checked = ExtractionRulesSchema.safeParse({ ...rules, poll_interval_seconds: undefined, max_wait_seconds: undefined });
  if (!checked.success) problems.push(...checked.error.issues.map((i) => `${file}: extraction_config.${i.path.join('.')}: ${i.message}`));
  return problems;
};

/**
 * Checks a whole catalogue, given as file name → parsed JSON: each file against the schema, its
 * patterns (rendered with sample values) against the safe-pattern rules, ids unique, and a
 * deprecated version's `replaced_by` naming a template of the catalogue. Throws a
 * {@link CatalogueError} listing every problem; answers the templates sorted by id.
 */
export const checkCatalogue = (files: ReadonlyMap<string, unknown>): TemplateFile[] => {
  const problems: string[] = [];
  const templates: TemplateFile[] = [];
  for (const [file, json] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const parsed = TemplateFile.safeParse(json);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((i) => `${file}: ${i.path.join('.') || '(file)'}: ${i.message}`));
      continue;
    }
    problems.push(...problemsOf(file, parsed.data));
    templates.push(parsed.data);
  }
  const ids = new Set(templates.map((t) => t.id));
  if (ids.size !== templates.length) problems.push('two files hold the same template id');
  for (const t of templates) {
    const next = t.deprecated?.replaced_by;
    if (next !== undefined && !ids.has(next)) problems.push(`${t.id}.json: replaced_by names ${next}, which the catalogue does not hold`);
  }
  if (problems.length > 0) throw new CatalogueError(problems);
  return templates;
};

/** Reads and checks every `*.json` of a catalogue folder (see {@link checkCatalogue}). */
export const loadCatalogue = (dir: string = DEFAULT_CATALOGUE_DIR): TemplateFile[] => {
  const files = new Map<string, unknown>();
  const problems: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    try {
      files.set(name, JSON.parse(readFileSync(join(dir, name), 'utf8')));
    } catch (error) {
      problems.push(`${name}: not valid JSON (${(error as Error).message})`);
    }
  }
  if (problems.length > 0) throw new CatalogueError(problems);
  return checkCatalogue(files);
};

const hashOf = (t: TemplateFile): string => createHash('sha256').update(JSON.stringify(t)).digest('hex');

/**
 * Brings the store's catalogue to these templates: a new one is inserted with its counts at 0, a
 * changed one gets its new definition with its counts kept. Safe from any number of hosts at once
 * (insert-if-absent, then an atomic update). A template missing from the files stays in the store
 * as it was: versions are deprecated, never deleted, so a deployed id keeps its answer.
 */
export const syncCatalogue = async (deps: CoreDeps, templates: readonly TemplateFile[]): Promise<{ inserted: number; updated: number }> => {
  let inserted = 0;
  let updated = 0;
  for (const t of templates) {
    const { version, ...rest } = t;
    const definition = { ...rest, template_version: version, listed: t.deprecated === undefined, definition_hash: hashOf(t), synced_at: iso(deps.clock.now()) };
    const fresh: TemplateRecord = { ...definition, deploy_count: 0, outcomes_succeeded: 0, outcomes_failed: 0, duration_total_seconds: 0 };
    if ((await deps.store.insert(C.templates, fresh)) === 'inserted') {
      inserted += 1;
      continue;
    }
    const outcome = await deps.store.update(C.templates, t.id, (current) => {
      if (current.definition_hash === definition.definition_hash) return undefined;
      const { deploy_count, outcomes_succeeded, outcomes_failed, duration_total_seconds } = current as unknown as TemplateRecord;
      // `deprecated` is left out of the file when absent, so the whole definition is replaced.
      return { ...definition, deploy_count, outcomes_succeeded, outcomes_failed, duration_total_seconds };
    });
    if (outcome?.written === true) updated += 1;
  }
  return { inserted, updated };
};
