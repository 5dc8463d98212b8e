import * as E from 'fp-ts/lib/Either.js';
import { hashSecret } from '../auth/secrets.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { tokenExpired, tokenInvalid, tokenReplayed } from '../domain/errors.js';
import { iso, isoPlus } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import type { RedirectTokenRecord } from './billing-record.js';

/** How long a checkout or portal redirect token can be redeemed: long enough for a browser round trip. */
export const REDIRECT_TOKEN_TTL_MS = 10 * 60_000;

const TOKEN_LENGTH = 40;

/** Mints a one-time token for `url`; only its hash is stored. */
export const mintRedirectToken = async (
  deps: CoreDeps,
  kind: RedirectTokenRecord['kind'],
  orgId: string,
  url: string,
): Promise<{ token: string; expires_at: string }> => {
  const token = `${kind === 'checkout' ? 'crt' : 'prt'}_${deps.ids.secret(TOKEN_LENGTH)}`;
  const now = deps.clock.now();
  const record: RedirectTokenRecord = {
    id: hashSecret(token),
    kind,
    org_id: orgId,
    url,
    created_at: iso(now),
    expires_at: isoPlus(now, REDIRECT_TOKEN_TTL_MS),
    redeemed_at: null,
  };
  await deps.store.insert(C.redirectTokens, record);
  return { token, expires_at: record.expires_at };
};

/**
 * Redeems a token once: compare-and-set from unredeemed to redeemed, so of concurrent
 * redemptions exactly one gets the URL. A token never minted answers `token_invalid`, one
 * redeemed before `token_replayed`, one past its lifetime `token_expired`.
 */
export const redeemRedirectToken = async (deps: CoreDeps, kind: RedirectTokenRecord['kind'], token: string): Promise<E.Either<DomainError, { url: string }>> => {
  const record = (await deps.store.get(C.redirectTokens, hashSecret(token))) as (RedirectTokenRecord & StoredDocument) | undefined;
  if (record === undefined || record.kind !== kind) return E.left(tokenInvalid());
  if (record.redeemed_at !== null) return E.left(tokenReplayed());
  const now = iso(deps.clock.now());
  if (record.expires_at <= now) return E.left(tokenExpired());
  const { version, ...rest } = record;
  if (!(await deps.store.replace(C.redirectTokens, { ...rest, redeemed_at: now }, version))) return E.left(tokenReplayed());
  return E.right({ url: record.url });
};
