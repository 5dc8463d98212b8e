import test from 'ava';
import { startApi } from './support.js';

const SCOPES = ['identities:read', 'marketplace:read', 'marketplace:deploy'];
const DEPLOY = '/v1/marketplace/templates/tmpl_store_signup_code_v1/deploy';
const params = { service_name: 'Northwind Store', sender_domain: 'shop.example.com' };

test('marketplace: list, detail and deploy answer the spec shapes', async (t) => {
  const api = await startApi();
  t.teardown(api.close);
  const tenant = await api.tenant(SCOPES);
  const list = await api.call('GET', '/v1/marketplace/templates?category=ecommerce', { tenant });
  t.is(list.status, 200);
  t.like(list.json, { limit: 20, offset: 0 });
  t.true(list.json.items.length >= 2 && list.json.items.every((i: { category: string }) => i.category === 'ecommerce'));
  const detail = await api.call('GET', '/v1/marketplace/templates/tmpl_store_signup_code_v1', { tenant });
  t.is(detail.status, 200);
  t.deepEqual(Object.keys(detail.json.extraction_config).sort(), ['code_pattern', 'extraction_type', 'max_wait_seconds', 'poll_interval_seconds', 'sender_pattern', 'subject_pattern']);
  t.is(detail.json.deploy_count, 0);
  const deployed = await api.call('POST', DEPLOY, { tenant, body: { parameters: params } });
  t.is(deployed.status, 201);
  t.deepEqual(Object.keys(deployed.json).sort(), ['created_at', 'deployment_id', 'estimated_duration_seconds', 'extraction_config', 'identity', 'status', 'template_id']);
  t.deepEqual(Object.keys(deployed.json.identity).sort(), ['email', 'expires_at', 'id', 'status']);
  t.is((await api.call('GET', '/v1/marketplace/templates/tmpl_store_signup_code_v1', { tenant })).json.deploy_count, 1);
});

test('marketplace: errors come in the envelope with the spec codes', async (t) => {
  const api = await startApi();
  t.teardown(api.close);
  const tenant = await api.tenant(SCOPES, 'starter');
  const code = async (method: string, path: string, body?: unknown, idem?: false) => {
    const res = await api.call(method, path, { tenant, body, ...(idem === false ? { idem } : {}) });
    return `${res.status} ${res.json?.error?.code}`;
  };
  t.is(await code('GET', '/v1/marketplace/templates?category=games'), '400 invalid_request');
  t.is(await code('GET', '/v1/marketplace/templates?limit=101'), '400 invalid_request');
  t.is(await code('GET', '/v1/marketplace/templates/tmpl_nothing_v1'), '404 template_not_found');
  t.is(await code('POST', '/v1/marketplace/templates/tmpl_nothing_v1/deploy', { parameters: {} }), '404 template_not_found');
  t.is(await code('POST', '/v1/marketplace/templates/tmpl_signup_link_v1/deploy', { parameters: { sender_domain: 'app.example.com' } }), '410 template_deprecated');
  t.is(await code('POST', DEPLOY, { parameters: { sender_domain: 'shop.example.com', code_length: 'six' } }), '400 invalid_parameters');
  t.is(await code('POST', DEPLOY, {}), '400 invalid_request');
  t.is(await code('POST', DEPLOY, { parameters: params }, false), '400 missing_idempotency_key');
  const bad = await api.call('POST', DEPLOY, { tenant, body: { parameters: { code_length: 'six', extra: 1 } } });
  t.regex(bad.json.error.message, /code_length must be an integer/);
  t.regex(bad.json.error.message, /extra unknown parameter/);
  t.regex(bad.json.error.message, /service_name required string is missing/);
  const gone = await api.call('POST', '/v1/marketplace/templates/tmpl_signup_link_v1/deploy', { tenant, body: { parameters: {} } });
  t.is(gone.json.error.details.replaced_by, 'tmpl_signup_link_v2');
  for (let i = 0; ; i += 1) {
    const res = await api.call('POST', DEPLOY, { tenant, body: { parameters: params } });
    if (res.status === 201) continue;
    t.is(`${res.status} ${res.json.error.code}`, '403 quota_exceeded');
    t.true(i > 0);
    break;
  }
});

test('marketplace: reading needs marketplace:read and deploying marketplace:deploy', async (t) => {
  const api = await startApi();
  t.teardown(api.close);
  const reader = await api.tenant(['marketplace:read']);
  const nobody = await api.tenant(['identities:read']);
  t.is((await api.call('GET', '/v1/marketplace/templates', { tenant: nobody })).status, 403);
  const refused = await api.call('POST', DEPLOY, { tenant: reader, body: { parameters: params } });
  t.is(refused.status, 403);
  t.deepEqual(refused.json.error.details.missing_scopes, ['marketplace:deploy']);
});
