import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';
import type { CoreDeps } from '../deps.js';
import { iso, isoPlus } from '../domain/time.js';
import { sharedRandomPool } from '../memory/random-pool.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { dueBy } from '../store/due-by.js';

/**
 * Where a key applies: the credential's tenant and the concrete route (`POST /v1/identities`).
 * `credential` names the credential that made the request (`api_key:key_…`, `access_token:tok_…`):
 * a record answers only the credential that made it (ADR 0031).
 */
export interface IdempotencyScope {
  readonly orgId: string;
  readonly projectId: string;
  readonly route: string;
  readonly credential: string;
}

export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

/** What a request holding an idempotency key may do. */
export type IdempotencyClaim =
  | {
      readonly kind: 'proceed';
      readonly claimId: string;
      readonly claimVersion: number;
      readonly sealKey: Buffer;
      /** The record as the claim wrote it, so completing it needs no read. */
      readonly claimed: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'replay'; readonly response: StoredResponse }
  | { readonly kind: 'reused' }
  /** The key was claimed by another credential of the tenant: nothing of its answer is told. */
  | { readonly kind: 'other_credential' }
  | { readonly kind: 'in_progress' };

/**
 * A stored answer, encrypted (AES-256-GCM) under a key derived from the client's Idempotency-Key,
 * which is never stored: answers such as a freshly minted access token are unreadable at rest
 * to anyone but the client that can replay them.
 */
interface SealedResponse {
  readonly iv: string;
  readonly tag: string;
  readonly data: string;
}

interface IdempotencyRecord {
  readonly id: string;
  readonly state: 'in_flight' | 'done';
  readonly request_hash: string;
  /** SHA-256 of the credential that claimed the key; absent on records made before ADR 0031. */
  readonly credential?: string;
  readonly response: SealedResponse | null;
  readonly created_at: string;
  readonly lease_until: string;
  readonly expires_at: string;
}

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A fingerprint of a request body that ignores key order, so equal JSON bodies match. */
export const fingerprint = (body: unknown): string => sha256(stableJson(body));

const stableJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
};

const HKDF_INFO = Buffer.from('ephemail idempotent response\x01', 'latin1');

/**
 * HKDF-SHA256 (RFC 5869) of the key, salted with the scope, 32 bytes: one HMAC to extract, one to
 * expand (32 bytes is a single block, so the block counter is 0x01). The same bytes as
 * `hkdfSync('sha256', key, scopeKey, 'ephemail idempotent response', 32)`, without the key
 * objects hkdfSync builds per call (~20 µs of a create's ~60 µs claim).
 */
export const sealKeyOf = (scopeKey: string, key: string): Buffer => {
  const prk = createHmac('sha256', scopeKey).update(key, 'utf8').digest();
  return createHmac('sha256', prk).update(HKDF_INFO).digest();
};

const seal = (sealKey: Buffer, response: StoredResponse): SealedResponse => {
  // A sync randomBytes call cost ~25 µs here, more than the whole encryption.
  const iv = sharedRandomPool.bytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(response), 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
};

const unseal = (sealKey: Buffer, sealed: SealedResponse): StoredResponse => {
  const decipher = createDecipheriv('aes-256-gcm', sealKey, Buffer.from(sealed.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as StoredResponse;
};

const decide = (existing: IdempotencyRecord, requestHash: string, credential: string, sealKey: Buffer): IdempotencyClaim => {
  // Checked first: another credential learns neither the body nor whether its own body matched.
  if (existing.credential !== credential) return { kind: 'other_credential' };
  if (existing.request_hash !== requestHash) return { kind: 'reused' };
  if (existing.state === 'in_flight' || existing.response === null) return { kind: 'in_progress' };
  return { kind: 'replay', response: unseal(sealKey, existing.response) };
};

/**
 * Claims a key atomically: of N concurrent requests with one key, exactly one proceeds; the
 * others see it in progress, or, once it completed, get its stored response replayed (a
 * different body answers `reused`). A claim whose holder died is taken over after the lease;
 * a key older than the retention period starts afresh.
 */
export const claimIdempotencyKey = async (
  deps: CoreDeps,
  scope: IdempotencyScope,
  key: string,
  requestHash: string,
): Promise<IdempotencyClaim> => {
  const scopeKey = `${scope.orgId}\n${scope.projectId}\n${scope.route}`;
  const id = sha256(`${scopeKey}\n${key}`);
  const credential = sha256(scope.credential);
  // The credential salts the seal too, so a record is unreadable even to a caller who got past the check.
  const sealKey = sealKeyOf(`${scopeKey}\n${scope.credential}`, key);
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const now = deps.clock.now();
    const fresh: IdempotencyRecord = {
      id,
      state: 'in_flight',
      request_hash: requestHash,
      credential,
      response: null,
      created_at: iso(now),
      lease_until: isoPlus(now, deps.config.idempotencyLeaseMs),
      expires_at: isoPlus(now, deps.config.idempotencyRetentionMs),
    };
    if ((await deps.store.insert(C.idempotency, fresh)) === 'inserted') {
      return { kind: 'proceed', claimId: id, claimVersion: 1, sealKey, claimed: { ...fresh } };
    }
    const existing = (await deps.store.get(C.idempotency, id)) as (IdempotencyRecord & StoredDocument) | undefined;
    if (existing === undefined) continue;
    const abandoned = existing.state === 'in_flight' && existing.lease_until <= iso(now);
    if (existing.expires_at > iso(now) && !abandoned) return decide(existing, requestHash, credential, sealKey);
    if (await deps.store.replace(C.idempotency, fresh, existing.version)) {
      return { kind: 'proceed', claimId: id, claimVersion: existing.version + 1, sealKey, claimed: { ...fresh } };
    }
  }
  return { kind: 'in_progress' };
};

/**
 * Stores the response of the claim's request so later requests with the key replay it: a
 * compare-and-set on the version the claim wrote, so a claim taken over after its lease (someone
 * else's now) stores nothing.
 */
export const completeIdempotencyKey = async (
  deps: CoreDeps,
  claim: { readonly claimId: string; readonly claimVersion: number; readonly sealKey: Buffer; readonly claimed: Readonly<Record<string, unknown>> },
  response: StoredResponse,
): Promise<boolean> =>
  deps.store.replace(
    C.idempotency,
    { ...claim.claimed, id: claim.claimId, state: 'done', response: seal(claim.sealKey, response) },
    claim.claimVersion,
  );

/** Gives the key back (the request failed in a way worth retrying), so a retry proceeds. */
export const releaseIdempotencyKey = async (
  deps: CoreDeps,
  claim: { readonly claimId: string; readonly claimVersion: number },
): Promise<void> => {
  await deps.store.remove(C.idempotency, claim.claimId, claim.claimVersion);
};

/** Deletes keys past retention; answers how many. Run by the maintenance job. */
export const purgeIdempotencyKeys = async (deps: CoreDeps, limit = 1000): Promise<number> => {
  const stale = await deps.store.find(C.idempotency, {
    range: dueBy('expires_at', deps.clock.now()),
    sort: { field: 'expires_at', direction: 'asc' },
    limit,
  });
  let removed = 0;
  for (const doc of stale) if (await deps.store.remove(C.idempotency, doc.id, doc.version)) removed += 1;
  return removed;
};
