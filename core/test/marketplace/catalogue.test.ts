import test from 'ava';
import { CatalogueError, checkCatalogue, loadCatalogue, TEMPLATE_CATEGORIES, TEMPLATE_USE_CASES } from '../../src/index.js';
import { right, setup } from '../support.js';

const shipped = loadCatalogue();
const base = shipped.find((t) => t.id === 'tmpl_keycloak_verify_code_v1')!;

const problemsOf = (files: Map<string, unknown>): string[] => {
  try {
    checkCatalogue(files);
    return [];
  } catch (error) {
    if (error instanceof CatalogueError) return [...error.problems];
    throw error;
  }
};
const one = (over: Record<string, unknown>, file = 'tmpl_x_v1.json') => new Map([[file, { ...base, id: 'tmpl_x_v1', ...over }]]);

test('catalogue: the shipped catalogue is valid, at least 12 live templates, covering every category and use case', (t) => {
  const live = shipped.filter((tpl) => tpl.deprecated === undefined);
  t.true(live.length >= 12);
  t.deepEqual([...new Set(live.map((tpl) => tpl.category))].sort(), [...TEMPLATE_CATEGORIES].sort());
  t.deepEqual([...new Set(live.map((tpl) => tpl.use_case))].sort(), [...TEMPLATE_USE_CASES].sort());
  for (const tpl of shipped) t.true(tpl.parameters.length > 0, tpl.id);
});

test('catalogue: a file named other than its id is refused', (t) => {
  t.true(problemsOf(one({}, 'other.json')).some((p) => /named after its id/.test(p)));
});

test('catalogue: a placeholder that names no parameter is refused', (t) => {
  const problems = problemsOf(one({ extraction_config: { ...base.extraction_config, subject_pattern: '{{service}}' } }));
  t.true(problems.some((p) => /\{\{service\}\} names no parameter/.test(p)), problems.join('\n'));
});

test('catalogue: a catastrophic pattern is refused with its reason', (t) => {
  const problems = problemsOf(one({ extraction_config: { ...base.extraction_config, code_pattern: '(\\d+)+$' } }));
  t.true(problems.some((p) => /code_pattern.*nested quantifiers/.test(p)), problems.join('\n'));
});

test('catalogue: a version whose major differs from the id, a bad category and a dangling replaced_by are refused', (t) => {
  t.true(problemsOf(one({ version: '2.0.0' })).some((p) => /major version/.test(p)));
  t.true(problemsOf(one({ category: 'games' })).some((p) => /category/.test(p)));
  const dangling = one({ deprecated: { since: '2026-01-01', reason: 'old', replaced_by: 'tmpl_nowhere_v2' } });
  t.true(problemsOf(dangling).some((p) => /tmpl_nowhere_v2/.test(p)));
});

test('catalogue: a default of the wrong type and an unknown field are refused', (t) => {
  const params = [{ name: 'code_length', type: 'integer', required: false, default: 'six', description: 'x' }];
  t.true(problemsOf(one({ parameters: params })).some((p) => /default of code_length/.test(p)));
  t.true(problemsOf(one({ colour: 'red' })).length > 0);
});

test('catalogue: a sync inserts once, keeps counts on a changed definition, and is idempotent', async (t) => {
  const { app } = await setup();
  t.deepEqual(await app.marketplace.sync(shipped), { inserted: shipped.length, updated: 0 });
  t.deepEqual(await app.marketplace.sync(shipped), { inserted: 0, updated: 0 });
  await app.deps.store.increment('templates', base.id, 'deploy_count', 4);
  const changed = shipped.map((tpl) => (tpl.id === base.id ? { ...tpl, version: '1.2.0' } : tpl));
  t.deepEqual(await app.marketplace.sync(changed), { inserted: 0, updated: 1 });
  const view = right(await app.marketplace.get(base.id));
  t.is(view.version, '1.2.0');
  t.is(view.deploy_count, 4);
});

test('catalogue: concurrent syncs from several hosts insert each template once', async (t) => {
  const { app } = await setup();
  const reports = await Promise.all([1, 2, 3].map(() => app.marketplace.sync(shipped)));
  t.is(reports.reduce((n, r) => n + r.inserted, 0), shipped.length);
});
