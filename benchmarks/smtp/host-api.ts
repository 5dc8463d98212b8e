/** The few host API calls the benchmark needs: make a recipient, count what it holds, long-poll. */
import { randomUUID } from 'node:crypto';
import type { HostApi } from './targets.js';

export interface Identity {
  readonly id: string;
  readonly email: string;
}

/** A fresh identity to receive the benchmark's mail. */
export const createIdentity = async (api: HostApi, label: string): Promise<Identity> => {
  const response = await fetch(`${api.base}/v1/identities`, {
    method: 'POST',
    headers: { ...api.headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ label, metadata: { source: 'smtp benchmark' } }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`creating an identity answered ${response.status}: ${text}`);
  const { id, email } = JSON.parse(text) as Identity;
  return { id, email };
};

/** How many messages the identity holds, by the API's own count. */
export const countMessages = async (api: HostApi, identityId: string): Promise<number> => {
  const response = await fetch(`${api.base}/v1/identities/${identityId}/messages?limit=1`, { headers: api.headers });
  if (!response.ok) throw new Error(`listing messages answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { total: number }).total;
};

export interface Extraction {
  readonly id: string;
  readonly value?: string;
}

/**
 * `GET .../extractions/latest?wait=<s>&reveal=true`, newer than `after` when given. Resolves with
 * the extraction and the moment (performance.now) its answer was read, or undefined on a 404.
 */
export const awaitExtraction = async (
  api: HostApi,
  identityId: string,
  waitSeconds: number,
  after: string | undefined,
): Promise<{ extraction: Extraction | undefined; at: number }> => {
  const query = new URLSearchParams({ wait: String(waitSeconds), reveal: 'true', ...(after === undefined ? {} : { after }) });
  const response = await fetch(`${api.base}/v1/identities/${identityId}/extractions/latest?${query}`, { headers: api.headers });
  const body = await response.text();
  const at = performance.now();
  if (response.status === 404) return { extraction: undefined, at };
  if (!response.ok) throw new Error(`the long-poll answered ${response.status}: ${body}`);
  return { extraction: JSON.parse(body) as Extraction, at };
};
