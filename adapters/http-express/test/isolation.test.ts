import test from 'ava';
import type { Api, Tenant } from './support.js';
import { startApi } from './support.js';

/**
 * Every registered route is called by tenant B against tenant A's data. A route missing from
 * CASES fails the suite, so a new route cannot ship without its isolation check.
 */
type Case = (ctx: { api: Api; a: Tenant; b: Tenant; victim: string; hook: string; dom: string; run: string; trial: string; invoice: string; path: string; method: string }) => Promise<void>;

type Ids = Pick<Parameters<Case>[0], 'victim' | 'hook' | 'dom' | 'run' | 'trial' | 'invoice'>;

/**
 * A route called by B with an id of A's answers exactly like one with an unknown id: 404 with
 * `code`, and the same body shape. `param` names the path parameter, `own` picks A's id from
 * the context, `unknown` is an id nobody has.
 */
const notFoundLikeUnknown =
  (param: string, own: keyof Ids, unknown: string, code: string, bodyOf: (path: string, method: string) => unknown = () => undefined): Case =>
  async (ctx) => {
    const { api, b, path, method } = ctx;
    const body = bodyOf(path, method);
    const foreign = await api.call(method, path.replace(`:${param}`, ctx[own]), { tenant: b, body });
    const other = await api.call(method, path.replace(`:${param}`, unknown), { tenant: b, body });
    if (foreign.status !== 404 || foreign.json.error.code !== code) throw new Error(`${method} ${path}: foreign id answered ${foreign.status} ${foreign.text}`);
    if (JSON.stringify(Object.keys(foreign.json)) !== JSON.stringify(Object.keys(other.json)) || other.status !== 404) {
      throw new Error(`${method} ${path}: foreign and unknown ids answer differently`);
    }
  };

const identityBody = (path: string, method: string) =>
  path.endsWith('/extend') ? { additional_hours: 1 } : path.endsWith('/children') && method === 'POST' ? { label: 'x' } : undefined;
const expectNotFoundLikeUnknown = notFoundLikeUnknown('identity_id', 'victim', 'ident_doesnotexist0000000000', 'identity_not_found', identityBody);

const ownOnly: Case = async ({ api, b, victim }) => {
  const list = await api.call('GET', '/v1/identities?limit=200', { tenant: b });
  if (list.json.items.some((item: { id: string }) => item.id === victim)) throw new Error('list shows another tenant');
};

const webhookBody = (path: string, method: string) =>
  method === 'PATCH' ? { description: 'stolen' } : path.endsWith('/replay') ? { event_id: 'evt_any' } : path.endsWith('/rotate-secret') ? {} : undefined;
const expectWebhookNotFoundLikeUnknown = notFoundLikeUnknown('webhook_id', 'hook', 'wh_doesnotexist000000000000', 'webhook_not_found', webhookBody);
const expectDomainNotFoundLikeUnknown = notFoundLikeUnknown('domain_id', 'dom', 'dom_doesnotexist000000000000', 'domain_not_found', (_, m) => (m === 'POST' ? {} : undefined));
const expectRunNotFoundLikeUnknown = notFoundLikeUnknown('run_id', 'run', 'run_doesnotexist000000000000', 'run_not_found');
const expectTrialNotFoundLikeUnknown = notFoundLikeUnknown('trial_id', 'trial', 'trial_doesnotexist00000000000', 'trial_not_found');
const expectInvoiceNotFoundLikeUnknown = notFoundLikeUnknown('invoice_id', 'invoice', 'inv_doesnotexist000000000000', 'invoice_not_found', (p) =>
  p.endsWith('/pdf') ? { download_token: 'idt_x' } : {},
);

const runOnVictim: Case = async ({ api, b, victim, path }) => {
  const res = await api.call('POST', path, { tenant: b, body: { target_url: 'https://b.example.com/reset', identity_id: victim } });
  if (res.status !== 404 || res.json.error.code !== 'identity_not_found') throw new Error(`B started a run on A's identity: ${res.text}`);
};

/** Free identities are opened by their own token only: another identity's token does not open one. */
const freeTokenScoped: Case = async ({ api, path }) => {
  const made = await Promise.all([0, 1].map(async () => (await api.service.free.create({ clientIp: `2001:db8::${Math.random().toString(16).slice(2, 6)}` })) as any));
  const [one, two] = made.map((m) => m.right as { id: string; token: string });
  const res = await api.call('GET', `${path.replace(':free_id', one!.id)}?token=${two!.token}`);
  if (res.status !== 401 || res.json.error.code !== 'invalid_token') throw new Error(`a token opened another free identity: ${res.text}`);
};

/** An agent credential opens no consumer route: consumers and agents never see each other's identities. */
const agentRefusedByConsumerRoute: Case = async ({ api, b, path, method }) => {
  const res = await api.call(method, path, { tenant: b, body: method === 'GET' ? undefined : { label: 'x' } });
  if (res.status !== 401) throw new Error(`${method} ${path} answered an agent key ${res.status}: ${res.text}`);
};

/** Sign-up, sign-in and verify create or open nothing of a tenant's. */
const touchesNoTenant: Case = async ({ api, a, path }) => {
  const before = (await api.call('GET', '/v1/identities', { tenant: a })).json.total;
  await api.call('POST', path, { body: path.endsWith('/verify') ? { token: 'cml_x' } : { email: `x${Math.random().toString(36).slice(2)}@example.org` } });
  if ((await api.call('GET', '/v1/identities', { tenant: a })).json.total !== before) throw new Error(`${path} changed a tenant`);
};

const CASES: Record<string, Case> = {
  'POST /v1/consumer/signup': touchesNoTenant,
  'POST /v1/consumer/login': touchesNoTenant,
  'POST /v1/consumer/verify': touchesNoTenant,
  'POST /v1/consumer/logout': agentRefusedByConsumerRoute,
  'GET /v1/consumer/identities': agentRefusedByConsumerRoute,
  'POST /v1/consumer/identities': agentRefusedByConsumerRoute,
  'POST /v1/consumer/upgrade': agentRefusedByConsumerRoute,
  'GET /v1/consumer/notifications': agentRefusedByConsumerRoute,
  'GET /v1/consumer/identities/:identity_id/secret': async (ctx) => agentRefusedByConsumerRoute({ ...ctx, path: ctx.path.replace(':identity_id', ctx.victim) }),
  'POST /v1/consumer/notifications/:notification_id/read': agentRefusedByConsumerRoute,
  'GET /v1/consumer/identities/:identity_id/messages': async (ctx) => agentRefusedByConsumerRoute({ ...ctx, path: ctx.path.replace(':identity_id', ctx.victim) }),
  'GET /v1/consumer/identities/:identity_id/messages/:message_id': async (ctx) => agentRefusedByConsumerRoute({ ...ctx, path: ctx.path.replace(':identity_id', ctx.victim) }),
  'GET /v1/consumer/session': async ({ api, b, path }) => {
    const res = await api.call('GET', path, { tenant: b });
    if (res.status !== 200 || res.json.signed_in !== false) throw new Error(`an agent key counted as a consumer session: ${res.text}`);
  },
  'POST /v1/free/identity': async ({ api, a }) => {
    const before = (await api.call('GET', '/v1/identities', { tenant: a })).json.total;
    await api.service.free.create({ clientIp: '198.51.100.200' });
    if ((await api.call('GET', '/v1/identities', { tenant: a })).json.total !== before) throw new Error('a free identity shows in a tenant');
  },
  'GET /v1/free/identity/:free_id': freeTokenScoped,
  'GET /v1/free/identity/:free_id/extraction': freeTokenScoped,
  'POST /v1/billing/invoices/:invoice_id/download-token': expectInvoiceNotFoundLikeUnknown,
  'POST /v1/billing/invoices/:invoice_id/pdf': expectInvoiceNotFoundLikeUnknown,
  'GET /v1/billing/subscription': async ({ api, b }) => {
    const res = await api.call('GET', '/v1/billing/subscription', { tenant: b });
    if (res.status !== 404 || res.json.error.code !== 'no_active_subscription') throw new Error(`B sees a subscription: ${res.text}`);
  },
  'POST /v1/billing/checkout': async ({ api, a, b }) => {
    await api.call('POST', '/v1/billing/checkout', { tenant: b, body: { plan: 'pro' } });
    if ((await api.call('GET', '/v1/billing/subscription', { tenant: a })).json.status !== 'trialing') throw new Error('changed A');
  },
  'POST /v1/billing/portal': async ({ api, b }) => {
    const res = await api.call('POST', '/v1/billing/portal', { tenant: b, body: {} });
    if (res.json.error?.code !== 'no_active_subscription') throw new Error(`B reached a portal: ${res.text}`);
  },
  'GET /v1/billing/usage': async ({ api, b }) => {
    const usage = await api.call('GET', '/v1/billing/usage', { tenant: b });
    // A registered a domain; B could not (the name is A's): B's usage must not count it.
    if (usage.status !== 200 || usage.json.domains_registered !== 0) throw new Error(`B's usage counts A: ${usage.text}`);
  },
  'GET /v1/billing/invoices': async ({ api, b }) => {
    if ((await api.call('GET', '/v1/billing/invoices', { tenant: b })).json.total !== 0) throw new Error('B sees invoices');
  },
  'POST /v1/trials/start': async ({ api, a, b, trial }) => {
    const own = await api.call('POST', '/v1/trials/start', { tenant: b, body: { plan: 'starter' } });
    if (own.status !== 201 || own.json.id === trial) throw new Error(`B's trial: ${own.text}`);
    if ((await api.call('GET', `/v1/trials/${trial}`, { tenant: a })).json.status !== 'ACTIVE') throw new Error('changed A');
  },
  'GET /v1/trials/:trial_id': expectTrialNotFoundLikeUnknown,
  'POST /v1/trials/:trial_id/convert': expectTrialNotFoundLikeUnknown,
  'POST /v1/trials/:trial_id/cancel': expectTrialNotFoundLikeUnknown,
  // The catalogue is one for every tenant (deploy_count included): nothing in it is a tenant's.
  'GET /v1/marketplace/templates': async ({ api, a, b }) => {
    const [seenByA, seenByB] = await Promise.all([a, b].map(async (tenant) => (await api.call('GET', '/v1/marketplace/templates', { tenant })).text));
    if (seenByA !== seenByB) throw new Error('the catalogue differs between tenants');
  },
  'GET /v1/marketplace/templates/:template_id': async ({ api, b }) => {
    const res = await api.call('GET', '/v1/marketplace/templates/tmpl_bitwarden_two_factor_v1', { tenant: b });
    if (res.status !== 200 || 'org_id' in res.json) throw new Error(`template view: ${res.text}`);
  },
  'POST /v1/marketplace/templates/:template_id/deploy': async ({ api, a, b }) => {
    const before = (await api.call('GET', '/v1/identities', { tenant: a })).json.total;
    const res = await api.call('POST', '/v1/marketplace/templates/tmpl_bitwarden_two_factor_v1/deploy', { tenant: b, body: { parameters: { sender_domain: 'vault.example.com' } } });
    if (res.status !== 201) throw new Error(`B could not deploy: ${res.text}`);
    if ((await api.call('GET', '/v1/identities', { tenant: a })).json.total !== before) throw new Error('deployed into A');
    if ((await api.call('GET', `/v1/identities/${res.json.identity.id}`, { tenant: a })).status !== 404) throw new Error("A sees B's deployment");
  },
  // An export covers the credential's own project: B's export never holds A's data, and A's export is unknown to B.
  'POST /v1/exports': async ({ api, a, b, victim }) => {
    const own = await api.call('POST', '/v1/exports', { tenant: b, body: { type: 'identities', format: 'json' } });
    if (own.status !== 201) throw new Error(`B could not export: ${own.text}`);
    await api.service.exports.jobsTick('isolation', { max: 5 });
    const ready = (await api.call('GET', `/v1/exports/${own.json.id}`, { tenant: b })).json;
    const file = await fetch(`${api.base}${ready.download_url}`);
    if (ready.status !== 'ready' || (await file.text()).includes(victim)) throw new Error(`B's export: ${JSON.stringify(ready)}`);
    if ((await api.call('GET', `/v1/exports/${own.json.id}`, { tenant: a })).status !== 404) throw new Error("A sees B's export");
  },
  'GET /v1/exports/:export_id': async (ctx) => {
    const mine = (await ctx.api.call('POST', '/v1/exports', { tenant: ctx.a, body: { type: 'events', format: 'csv' } })).json.id as string;
    await notFoundLikeUnknown('export_id', 'victim', 'exp_doesnotexist000000000000', 'export_not_found')({ ...ctx, victim: mine });
  },
  'POST /v1/reliability/password-reset': runOnVictim,
  'POST /v1/reliability/invite': runOnVictim,
  'GET /v1/reliability/:run_id': expectRunNotFoundLikeUnknown,
  'GET /v1/reliability/:run_id/secret': expectRunNotFoundLikeUnknown,
  'POST /v1/domains': async ({ api, a, b, dom }) => {
    const mine = (await api.call('GET', `/v1/domains/${dom}`, { tenant: a })).json.domain;
    // A name is registered once across tenants: B is told so, and A's registration is untouched.
    const taken = await api.call('POST', '/v1/domains', { tenant: b, body: { domain: mine } });
    if (taken.status !== 409) throw new Error(`B registered A's domain: ${taken.text}`);
    if ((await api.call('GET', '/v1/domains', { tenant: a })).json.total !== 1) throw new Error('changed A');
  },
  'GET /v1/domains': async ({ api, b, dom }) => {
    const list = await api.call('GET', '/v1/domains?limit=200', { tenant: b });
    if (list.json.items.some((item: { id: string }) => item.id === dom)) throw new Error('list shows another tenant');
  },
  'GET /v1/domains/:domain_id': expectDomainNotFoundLikeUnknown,
  'POST /v1/domains/:domain_id/verify': expectDomainNotFoundLikeUnknown,
  'DELETE /v1/domains/:domain_id': expectDomainNotFoundLikeUnknown,
  'POST /v1/auth/tokens': async ({ api, b }) => {
    const res = await api.call('POST', '/v1/auth/tokens', { tenant: b, body: { scopes: ['identities:read'] } });
    const me = await api.call('GET', '/v1/me', { tenant: { ...b, key: res.json.access_token } });
    if (me.json.organization_id !== b.orgId) throw new Error('token bound to the wrong tenant');
  },
  'GET /v1/me': async ({ api, b }) => {
    if ((await api.call('GET', '/v1/me', { tenant: b })).json.project_id !== b.projectId) throw new Error('wrong profile');
  },
  'POST /v1/identities': async ({ api, a, b }) => {
    const before = (await api.call('GET', '/v1/identities', { tenant: a })).json.total;
    await api.call('POST', '/v1/identities', { tenant: b, body: { label: 'b' } });
    if ((await api.call('GET', '/v1/identities', { tenant: a })).json.total !== before) throw new Error('created in A');
  },
  'GET /v1/identities': ownOnly,
  'POST /v1/identities/bulk': async ({ api, a, b }) => {
    const before = (await api.call('GET', '/v1/identities', { tenant: a })).json.total;
    await api.call('POST', '/v1/identities/bulk', { tenant: b, body: { identities: [{ label: 'b1' }] } });
    if ((await api.call('GET', '/v1/identities', { tenant: a })).json.total !== before) throw new Error('created in A');
  },
  'POST /v1/identities/bulk-squash': async ({ api, b, victim }) => {
    const res = await api.call('POST', '/v1/identities/bulk-squash', { tenant: b, body: { identity_ids: [victim] } });
    if (res.json.failed[0]?.code !== 'identity_not_found') throw new Error(`bulk-squash touched A: ${res.text}`);
  },
  'GET /v1/identities/:identity_id': expectNotFoundLikeUnknown,
  'POST /v1/identities/:identity_id/extend': expectNotFoundLikeUnknown,
  'POST /v1/identities/:identity_id/squash': expectNotFoundLikeUnknown,
  'POST /v1/identities/:identity_id/children': expectNotFoundLikeUnknown,
  'DELETE /v1/identities/:identity_id/children': expectNotFoundLikeUnknown,
  'GET /v1/identities/:identity_id/lineage': expectNotFoundLikeUnknown,
  'GET /v1/identities/:identity_id/events': expectNotFoundLikeUnknown,
  'GET /v1/identities/:identity_id/events/latest': expectNotFoundLikeUnknown,
  'GET /v1/identities/:identity_id/extractions/latest': expectNotFoundLikeUnknown,
  'GET /v1/identities/:identity_id/messages': expectNotFoundLikeUnknown,
  'GET /v1/identities/:identity_id/messages/:message_id': expectNotFoundLikeUnknown,
  'GET /v1/identities/:identity_id/messages/:message_id/raw': expectNotFoundLikeUnknown,
  'POST /v1/webhooks': async ({ api, a, b }) => {
    const before = (await api.call('GET', '/v1/webhooks', { tenant: a })).json.total;
    await api.call('POST', '/v1/webhooks', { tenant: b, body: { url: 'https://b.example.com/h', events: ['identity.provisioned'] } });
    if ((await api.call('GET', '/v1/webhooks', { tenant: a })).json.total !== before) throw new Error('created in A');
  },
  'GET /v1/webhooks': async ({ api, b, hook }) => {
    const list = await api.call('GET', '/v1/webhooks?limit=200', { tenant: b });
    if (list.json.items.some((item: { id: string }) => item.id === hook)) throw new Error('list shows another tenant');
  },
  'GET /v1/webhooks/:webhook_id': expectWebhookNotFoundLikeUnknown,
  'PATCH /v1/webhooks/:webhook_id': expectWebhookNotFoundLikeUnknown,
  'DELETE /v1/webhooks/:webhook_id': expectWebhookNotFoundLikeUnknown,
  'POST /v1/webhooks/:webhook_id/rotate-secret': expectWebhookNotFoundLikeUnknown,
  'GET /v1/webhooks/:webhook_id/deliveries': expectWebhookNotFoundLikeUnknown,
  'POST /v1/webhooks/:webhook_id/replay': async (ctx) => {
    await expectWebhookNotFoundLikeUnknown(ctx);
    const { api, a, b, victim } = ctx;
    const eventId = (await api.call('GET', `/v1/identities/${victim}/events`, { tenant: a })).json.items[0].id;
    const own = (await api.call('POST', '/v1/webhooks', { tenant: b, body: { url: 'https://b.example.com/h', events: ['identity.provisioned'] } })).json.id;
    const replay = await api.call('POST', `/v1/webhooks/${own}/replay`, { tenant: b, body: { event_id: eventId } });
    if (replay.status !== 404 || replay.json.error.code !== 'event_not_found') throw new Error(`replayed A's event: ${replay.text}`);
  },
};

test('isolation: every route refuses another tenant\u2019s headers and never reveals or changes its data', async (t) => {
  const api = await startApi();
  try {
    const everything = ['identities:read', 'identities:write', 'secrets:read', 'webhooks:read', 'webhooks:write', 'domains:read', 'domains:write', 'reliability:write', 'billing:read', 'billing:write', 'trials:write', 'marketplace:read', 'marketplace:deploy', 'exports:read', 'exports:write'];
    const a = await api.tenant(everything);
    const b = await api.tenant(everything);
    const victim = (await api.call('POST', '/v1/identities', { tenant: a, body: { label: 'victim' } })).json.id as string;
    const child = (await api.call('POST', `/v1/identities/${victim}/children`, { tenant: a, body: { label: 'kid' } })).json.id;
    const created = (await api.call('POST', '/v1/webhooks', { tenant: a, body: { url: 'https://a.example.com/h', events: ['identity.provisioned'] } })).json;
    const hook = created.id as string;
    const dom = (await api.call('POST', '/v1/domains', { tenant: a, body: { domain: `a-${a.orgId.slice(4)}.example.org` } })).json.id as string;
    const run = (await api.call('POST', '/v1/reliability/invite', { tenant: a, body: { target_url: 'https://a.example.com/invite', identity_id: victim } })).json.id as string;
    const trial = (await api.call('POST', '/v1/trials/start', { tenant: a, body: { plan: 'growth' } })).json.id as string;
    // An invoice of A's, as a provider's callback would have made it.
    const invoice = 'inv_isolation000000000000000';
    await api.service.deps.store.insert('invoices', {
      id: invoice, org_id: a.orgId, provider_reference: 'in_1', amount_cents: 100, currency: 'usd', status: 'paid', period_start: '2026-03-01T00:00:00.000Z',
      period_end: '2026-04-01T00:00:00.000Z', lines: [], created_at: '2026-03-01T00:00:00.000Z', download_hash: 'x', download_preview: 'idt_…x', download_expires_at: '2026-03-02T00:00:00.000Z', download_used_at: null,
    });
    for (const route of api.http.routes) {
      const method = route.method.toUpperCase();
      const name = `${method} ${route.path}`;
      const check = CASES[name];
      t.truthy(check, `no isolation case for ${name}`);
      if (!check) continue;
      const crossHeaders = await api.call(method, route.path.replace(':identity_id', victim).replace(':webhook_id', hook).replace(':domain_id', dom).replace(':run_id', run).replace(':trial_id', trial).replace(':invoice_id', invoice), {
        tenant: { ...b, orgId: a.orgId, projectId: a.projectId },
        body: method === 'GET' ? undefined : {},
      });
      // Anonymous routes (the free tier) read no credential or tenant headers at all.
      if (route.auth === undefined || route.auth === 'agent') {
        t.is(crossHeaders.status, 403, `${name} with A's headers`);
        t.is(crossHeaders.json.error.code, 'scope_mismatch');
      }
      await t.notThrowsAsync(() => check({ api, a, b, victim, hook, dom, run, trial, invoice, path: route.path, method }), name);
    }
    const after = await api.call('GET', `/v1/identities/${victim}`, { tenant: a });
    t.is(after.json.status, 'provisioned', 'A’s identity untouched');
    t.is((await api.call('GET', `/v1/identities/${child}`, { tenant: a })).json.status, 'provisioned');
    const hookAfter = (await api.call('GET', `/v1/webhooks/${hook}`, { tenant: a })).json;
    t.like(hookAfter, { url: 'https://a.example.com/h', description: null, secretPreview: created.secretPreview, rotated_at: null }, 'A’s endpoint untouched');
    t.is((await api.call('GET', `/v1/domains/${dom}`, { tenant: a })).json.status, 'pending_verification', 'A’s domain untouched');
    t.is((await api.call('GET', `/v1/trials/${trial}`, { tenant: a })).json.status, 'ACTIVE', 'A’s trial untouched');
    t.is(Object.keys(CASES).length, api.http.routes.length, 'a case for a route that no longer exists');
  } finally {
    await api.close();
  }
});
