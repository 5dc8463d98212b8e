import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { errorFromResponse } from './errors.js';
import type { paths } from './generated/openapi.js';
import { createRetryingFetch } from './retrying-fetch.js';
import type { EphemailClient, EphemailClientOptions, Extraction, Page } from './types.js';
import { secretOf, waitForExtraction, type LongPoll } from './wait.js';

/** The label of an identity created without one. */
export const DEFAULT_LABEL = 'ephemail client';

const MUTATIONS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Gives every mutation an `Idempotency-Key` unless the caller set one. It is set once, before
 * the retrying fetch, so every retry of the call sends the same key.
 */
const idempotencyKeys: Middleware = {
  onRequest: ({ request }) => {
    if (MUTATIONS.has(request.method) && !request.headers.has('idempotency-key')) {
      request.headers.set('Idempotency-Key', globalThis.crypto.randomUUID());
    }
    return request;
  },
};

/** The answer's data, or the {@link EphemailError} its envelope describes. */
const ok = <D>(result: { data?: D; error?: unknown; response: Response }): D => {
  if (!result.response.ok || result.data === undefined) throw errorFromResponse(result.response, result.error);
  return result.data;
};

const pageOf = <T>(page: { items: T[]; total: number; limit: number; offset: number }): Page<T> => ({
  data: page.items,
  total: page.total,
  limit: page.limit,
  offset: page.offset,
});

const text = (value: number | boolean | undefined): string | undefined => (value === undefined ? undefined : String(value));
const revealQuery = (reveal: boolean | undefined) => (reveal === undefined ? {} : { reveal: reveal ? ('true' as const) : ('false' as const) });

/** The openapi-fetch client with the credential, tenant headers, idempotency keys and retries. */
const rawClient = (options: EphemailClientOptions): Client<paths> => {
  const send = options.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init));
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: createRetryingFetch((url, init) => send(url, init), options.retries ?? 3),
    headers: { Authorization: `Bearer ${options.apiKey}`, 'X-Org-Id': options.orgId, 'X-Project-Id': options.projectId },
  });
  api.use(idempotencyKeys);
  return api;
};

/** The long-poll of `waitForCode`/`waitForLink`: 404 `extraction_not_found` means nothing yet. */
const longPoll =
  (api: Client<paths>): LongPoll =>
  async (identityId, query, signal) => {
    const params = { wait: String(query.wait), after: query.after, type: query.type, ...revealQuery(query.reveal) };
    const result = await api.GET('/v1/identities/{identity_id}/extractions/latest', { params: { path: { identity_id: identityId }, query: params }, signal });
    if (result.response.status === 404 && result.error?.error.code === 'extraction_not_found') return undefined;
    return ok(result);
  };

const identityMethods = (api: Client<paths>) => ({
  createIdentity: async (body: Parameters<EphemailClient['createIdentity']>[0] = {}, options: Parameters<EphemailClient['createIdentity']>[1] = {}) => {
    const header = options.idempotencyKey === undefined ? undefined : { 'Idempotency-Key': options.idempotencyKey };
    const json = { ...body, label: body.label ?? DEFAULT_LABEL };
    return ok(await api.POST('/v1/identities', { body: json, params: { header }, signal: options.signal }));
  },
  getIdentity: async (id: string, options: { signal?: AbortSignal } = {}) =>
    ok(await api.GET('/v1/identities/{identity_id}', { params: { path: { identity_id: id } }, signal: options.signal })),
  listIdentities: async (query: Parameters<EphemailClient['listIdentities']>[0] = {}, options: { signal?: AbortSignal } = {}) => {
    const params = { query: { status: query.status, label: query.label, limit: text(query.limit), offset: text(query.offset) } };
    return pageOf(ok(await api.GET('/v1/identities', { params, signal: options.signal })));
  },
  extendIdentity: async (id: string, body: Parameters<EphemailClient['extendIdentity']>[1], options: { signal?: AbortSignal } = {}) =>
    ok(await api.POST('/v1/identities/{identity_id}/extend', { params: { path: { identity_id: id } }, body, signal: options.signal })),
  squashIdentity: async (id: string, options: { signal?: AbortSignal } = {}) =>
    ok(await api.POST('/v1/identities/{identity_id}/squash', { params: { path: { identity_id: id } }, body: {}, signal: options.signal })),
});

const mailMethods = (api: Client<paths>) => ({
  listMessages: async (identityId: string, query: Parameters<EphemailClient['listMessages']>[1] = {}, options: { signal?: AbortSignal } = {}) => {
    const params = { path: { identity_id: identityId }, query: { limit: text(query.limit), offset: text(query.offset), ...revealQuery(query.reveal) } };
    return pageOf(ok(await api.GET('/v1/identities/{identity_id}/messages', { params, signal: options.signal })));
  },
  getMessage: async (identityId: string, messageId: string, options: { reveal?: boolean; signal?: AbortSignal } = {}) => {
    const params = { path: { identity_id: identityId, message_id: messageId }, query: revealQuery(options.reveal) };
    return ok(await api.GET('/v1/identities/{identity_id}/messages/{message_id}', { params, signal: options.signal }));
  },
  latestExtraction: async (
    identityId: string,
    options: { reveal?: boolean; type?: Extraction['type']; signal?: AbortSignal } = {},
  ): Promise<Extraction | undefined> => longPoll(api)(identityId, { wait: 0, after: undefined, reveal: options.reveal ?? false, type: options.type }, options.signal),
});

/** A client of the ephemail /v1 API at `options.baseUrl`, acting with `options.apiKey` in the given tenant. */
export const createEphemailClient = (options: EphemailClientOptions): EphemailClient => {
  const api = rawClient(options);
  const poll = longPoll(api);
  return {
    api,
    ...identityMethods(api),
    ...mailMethods(api),
    waitForCode: async (identityId, waitOptions) => {
      const extraction = await waitForExtraction(poll, identityId, 'otp', waitOptions);
      const secret = secretOf(extraction, 'otp')!;
      return { code: secret.value, redacted: secret.redacted, extraction };
    },
    waitForLink: async (identityId, waitOptions) => {
      const extraction = await waitForExtraction(poll, identityId, 'magic_link', waitOptions);
      const secret = secretOf(extraction, 'magic_link')!;
      return { link: secret.value, redacted: secret.redacted, extraction };
    },
  };
};
