import { isIP } from 'node:net';
import type { UrlGuard, UrlVerdict } from './ports.js';

const MAX_URL_LENGTH = 2048;

const refuse = (reason: string): UrlVerdict => ({ ok: false, reason });

const isLoopbackHost = (hostname: string): boolean => {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
};

/**
 * The checks core makes on its own when the embedder passes no guard: scheme, credentials in the
 * URL, plain http only to loopback. It knows no address ranges; the host passes the full guard
 * of the http-outbound adapter, and the transport refuses private destinations at every attempt
 * whichever guard admitted the URL.
 */
export const basicUrlGuard: UrlGuard = {
  check: async (raw, { allowHttpLoopback }) => {
    if (raw.length > MAX_URL_LENGTH) return refuse(`longer than ${MAX_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return refuse('not a URL');
    }
    if (url.username !== '' || url.password !== '') return refuse('credentials in the URL are not allowed');
    if (url.protocol === 'https:') return url.hostname === '' ? refuse('no host') : { ok: true };
    if (url.protocol !== 'http:') return refuse('only https:// URLs are allowed');
    if (allowHttpLoopback && isLoopbackHost(url.hostname)) return { ok: true };
    return refuse(allowHttpLoopback ? 'plain http:// is allowed only to a loopback host' : 'only https:// URLs are allowed');
  },
};
