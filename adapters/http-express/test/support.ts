import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { PaymentProvider, PlanName } from '@ephemail/core';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import { createHttpApp } from '../src/index.js';

export interface Tenant {
  readonly key: string;
  readonly orgId: string;
  readonly projectId: string;
}

/** A payment provider that opens pages nobody visits and verifies no callback: billing is configured. */
const stubProvider: PaymentProvider = {
  name: 'stub',
  createCustomer: async ({ orgId }) => ({ customerReference: `cus_${orgId}` }),
  createCheckoutSession: async ({ plan, reference }) => ({ url: `https://pay.example/checkout/${plan}/${reference}` }),
  createPortalSession: async ({ subscriptionReference }) => ({ url: `https://pay.example/portal/${subscriptionReference}` }),
  verifyCallback: () => ({ kind: 'invalid', reason: 'the stub verifies nothing' }),
};

/** The API on a memory store, listening on a free loopback port. */
export const startApi = async () => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const service = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, billing: { provider: stubProvider } });
  await service.init();
  await service.marketplace.sync();
  const http = createHttpApp(service);
  const server = http.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tenant = async (scopes = ['identities:read', 'identities:write'], plan: PlanName = 'growth'): Promise<Tenant> => {
    const orgId = `org_${randomUUID().slice(0, 8)}`;
    const projectId = `proj_${randomUUID().slice(0, 8)}`;
    const created = await service.auth.createApiKey({ orgId, projectIds: [projectId], scopes, plan });
    if (E.isLeft(created)) throw new Error(created.left._tag);
    return { key: created.right.key, orgId, projectId };
  };
  const call = async (
    method: string,
    path: string,
    options: { tenant?: Tenant; body?: unknown; rawBody?: string; idem?: string | false; headers?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.tenant) {
      headers.authorization = `Bearer ${options.tenant.key}`;
      headers['x-org-id'] = options.tenant.orgId;
      headers['x-project-id'] = options.tenant.projectId;
    }
    if (method !== 'GET' && options.idem !== false) headers['idempotency-key'] = options.idem ?? randomUUID();
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${base}${path}`, { method, headers, body });
    const text = await response.text();
    let json: any;
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json, text };
  };
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { service, clock, http, base, tenant, call, close };
};

export type Api = Awaited<ReturnType<typeof startApi>>;
