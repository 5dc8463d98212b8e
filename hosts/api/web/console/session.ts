// The console's one credential: an access token, held in this module's memory and nowhere else
// (no localStorage, sessionStorage or cookie), so closing or reloading the tab signs out. Every
// call goes to this host's public /v1 API, as any client of it would.

export interface Me {
  readonly organization_id: string;
  readonly project_id: string | null;
  readonly projects: readonly string[];
  readonly scopes: readonly string[];
}

interface Session {
  readonly token: string;
  readonly orgId: string;
  readonly projectId: string;
  readonly scopes: readonly string[];
}

export interface Answer<T> {
  readonly status: number;
  readonly ok: boolean;
  readonly body: T;
  readonly code: string | undefined;
  readonly message: string | undefined;
}

/** How long the token lives: short, since the page holds it (the API allows 60..86400 s). */
const TOKEN_SECONDS = 3600;

let session: Session | undefined;
let onExpired: () => void = () => undefined;

/** Called once when a call finds the token no longer works (expired, or its key revoked). */
export const whenExpired = (handler: () => void): void => {
  onExpired = handler;
};

export const signedIn = (): boolean => session !== undefined;
export const scopes = (): readonly string[] => session?.scopes ?? [];
export const tenant = (): { orgId: string; projectId: string } | undefined =>
  session === undefined ? undefined : { orgId: session.orgId, projectId: session.projectId };

/** Forgets the token. It stays valid at the API until it expires; nothing here can use it again. */
export const signOut = (): void => {
  session = undefined;
};

/** A key for one mutation, so a retried request is not applied twice. */
const idempotencyKey = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

const read = async <T>(res: Response): Promise<Answer<T>> => {
  const parsed: unknown = res.status === 204 ? {} : await res.json().catch(() => ({}));
  const error = (parsed as { error?: { code?: string; message?: string } }).error;
  return { status: res.status, ok: res.ok, body: parsed as T, code: res.ok ? undefined : error?.code, message: res.ok ? undefined : error?.message };
};

const send = (method: string, path: string, bearer: string, tenantOf?: { orgId: string; projectId: string }, body?: unknown, signal?: AbortSignal) => {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${bearer}` };
  if (tenantOf !== undefined) Object.assign(headers, { 'x-org-id': tenantOf.orgId, 'x-project-id': tenantOf.projectId });
  if (method !== 'GET') Object.assign(headers, { 'content-type': 'application/json', 'idempotency-key': idempotencyKey() });
  return fetch(path, { method, headers, credentials: 'omit', cache: 'no-store', ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }), ...(signal ? { signal } : {}) });
};

/** What the key covers, asked without tenant headers (the one route that allows it). */
export const whoIs = async (key: string): Promise<Answer<Me>> => read<Me>(await send('GET', '/v1/me', key));

/** Exchanges the key for a token on one project, with all the key's scopes; the key is not kept. */
export const exchange = async (key: string, me: Me, projectId: string): Promise<Answer<unknown>> => {
  const where = { orgId: me.organization_id, projectId };
  const answer = await read<{ access_token: string; scopes: string[] }>(
    await send('POST', '/v1/auth/tokens', key, where, { scopes: me.scopes, ttl_seconds: TOKEN_SECONDS }),
  );
  if (answer.ok) session = { token: answer.body.access_token, ...where, scopes: answer.body.scopes };
  return answer;
};

/** One call with the token. A 401 means the token ended: the session is dropped and the page told. */
export const api = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, signal?: AbortSignal): Promise<Answer<T>> => {
  const current = session;
  if (current === undefined) return { status: 401, ok: false, body: {} as T, code: 'unauthorized', message: 'Signed out.' };
  const answer = await read<T>(await send(method, path, current.token, current, body, signal));
  if (answer.status === 401 && session === current) {
    session = undefined;
    onExpired();
  }
  return answer;
};

/** The bytes of a GET (a raw message) with the token, for a download made in the page. */
export const download = async (path: string): Promise<Blob | Answer<unknown>> => {
  const current = session;
  if (current === undefined) return { status: 401, ok: false, body: {}, code: 'unauthorized', message: 'Signed out.' };
  const res = await fetch(path, { headers: { authorization: `Bearer ${current.token}`, 'x-org-id': current.orgId, 'x-project-id': current.projectId }, credentials: 'omit', cache: 'no-store' });
  return res.ok ? res.blob() : read(res);
};
