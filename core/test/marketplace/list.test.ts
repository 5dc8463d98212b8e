import test from 'ava';
import { ListTemplatesQuery } from '../../src/index.js';
import { right } from '../support.js';
import { marketplaceSetup } from './support.js';

const query = (raw: Record<string, string>) => ListTemplatesQuery.parse(raw);

test('list: the catalogue by name, 20 by default, deprecated versions left out', async (t) => {
  const { app } = await marketplaceSetup();
  const page = right(await app.marketplace.list(query({})));
  t.is(page.limit, 20);
  t.true(page.items.every((item) => item.deprecated === null));
  const names = page.items.map((item) => item.name);
  t.deepEqual(names, [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  t.false(page.items.some((item) => item.id === 'tmpl_signup_link_v1'));
  const all = right(await app.marketplace.list(query({ include_deprecated: 'true' })));
  t.is(all.total, page.total + 1);
});

test('list: category and use_case filter together, and paging walks the whole list', async (t) => {
  const { app } = await marketplaceSetup();
  const dev = right(await app.marketplace.list(query({ category: 'developer', use_case: 'signup' })));
  t.true(dev.total >= 2);
  t.true(dev.items.every((i) => i.category === 'developer' && i.use_case === 'signup'));
  const first = right(await app.marketplace.list(query({ limit: '5' })));
  const second = right(await app.marketplace.list(query({ limit: '5', offset: '5' })));
  t.is(first.items.length, 5);
  t.deepEqual(new Set([...first.items, ...second.items].map((i) => i.id)).size, 10);
});

test('list: a summary carries the spec fields, and not the extraction_config', async (t) => {
  const { app } = await marketplaceSetup();
  const [item] = right(await app.marketplace.list(query({ limit: '1' }))).items;
  t.truthy(item);
  for (const field of ['id', 'name', 'description', 'category', 'use_case', 'version', 'parameters', 'estimated_duration_seconds', 'success_rate']) t.true(field in item!, field);
  t.false('extraction_config' in item!);
  t.regex(item!.version, /^\d+\.\d+\.\d+$/);
});

test('list: unknown filters and limits over 100 are refused', (t) => {
  t.false(ListTemplatesQuery.safeParse({ category: 'games' }).success);
  t.false(ListTemplatesQuery.safeParse({ use_case: 'login' }).success);
  t.false(ListTemplatesQuery.safeParse({ limit: '101' }).success);
  t.false(ListTemplatesQuery.safeParse({ sort: 'name' }).success);
});
