import { createHmac, timingSafeEqual } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../domain/errors.js';
import { downloadExpired, downloadSignatureInvalid } from '../domain/errors.js';
import { iso } from '../domain/time.js';

/** The path of an export's download on the export host. */
export const downloadPath = (exportId: string): string => `/v1/exports/${encodeURIComponent(exportId)}/download`;

/**
 * The link's signature: lowercase hex HMAC-SHA256, keyed by the host's signing secret, over
 * `<export id>.<expires>` with `expires` in Unix seconds. The id and the expiry are all a link
 * grants, so both are signed; no API key or other credential is ever part of the URL.
 */
export const signDownload = (key: Uint8Array | string, exportId: string, expires: number): string =>
  createHmac('sha256', key).update(`${exportId}.${expires}`, 'utf8').digest('hex');

/** `<base>/v1/exports/<id>/download?expires=<unix s>&signature=<hex>`. */
export const downloadUrl = (base: string, key: Uint8Array | string, exportId: string, expiresAt: string): string => {
  const expires = Math.floor(Date.parse(expiresAt) / 1000);
  return `${base.replace(/\/+$/, '')}${downloadPath(exportId)}?expires=${expires}&signature=${signDownload(key, exportId, expires)}`;
};

/** What a download request presents: the id from the path and the two query parameters, as sent. */
export interface PresentedLink {
  readonly exportId: string;
  readonly expires: string | undefined;
  readonly signature: string | undefined;
}

const EXPIRES = /^\d{1,12}$/;
const SIGNATURE = /^[0-9a-f]{64}$/i;

/**
 * Checks a presented link: the signature first, in constant time (`DownloadSignatureInvalid`
 * for any malformed or altered part, so nothing about the export leaks to a forger), then the
 * expiry (`DownloadExpired` from the second it names). Answers the expiry in Unix seconds.
 */
export const verifyDownload = (key: Uint8Array | string, link: PresentedLink, now: Date): E.Either<DomainError, number> => {
  if (link.expires === undefined || link.signature === undefined || !EXPIRES.test(link.expires) || !SIGNATURE.test(link.signature)) {
    return E.left(downloadSignatureInvalid());
  }
  const expires = Number(link.expires);
  const expected = Buffer.from(signDownload(key, link.exportId, expires), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(link.signature.toLowerCase(), 'hex'))) return E.left(downloadSignatureInvalid());
  if (now.getTime() >= expires * 1000) return E.left(downloadExpired(iso(new Date(expires * 1000))));
  return E.right(expires);
};
