import { normalizeDestinationUrl } from '@ephemail/core';
import { isIP } from 'node:net';
import { classifyAddress } from './address-policy.js';

export const MAX_URL_LENGTH = 2048;

/** A destination that passed the static checks. */
export interface Target {
  readonly url: URL;
  readonly protocol: 'https:' | 'http:';
  /** The host without IPv6 brackets: a name, or an address literal. */
  readonly host: string;
  readonly port: number;
  /** Set when the host is an address literal (no DNS then). */
  readonly literal: boolean;
}

export type UrlCheck = { readonly ok: true; readonly target: Target } | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): UrlCheck => ({ ok: false, reason });

/**
 * Names that resolve inside a network by convention, refused before any DNS (the resolved
 * addresses are checked anyway at every attempt; this is the earlier, clearer refusal).
 */
const INTERNAL_SUFFIXES = ['local', 'localdomain', 'internal', 'intranet', 'lan', 'home.arpa', 'arpa', 'invalid', 'onion'];

const isLoopbackName = (name: string): boolean => name === 'localhost' || name.endsWith('.localhost');

const checkName = (name: string, protocol: string, allowHttpLoopback: boolean): string | undefined => {
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (isLoopbackName(bare)) return allowHttpLoopback ? undefined : `${name} is a loopback name`;
  if (protocol === 'http:') return 'plain http:// is allowed only to a loopback host';
  if (!bare.includes('.')) return `${name} is a single-label name (resolved by local search domains)`;
  const internal = INTERNAL_SUFFIXES.find((suffix) => bare === suffix || bare.endsWith(`.${suffix}`));
  return internal === undefined ? undefined : `${name} is under .${internal}, a name for internal networks`;
};

/**
 * The static checks of a user-supplied URL, before any DNS: the core's destination rules (no
 * control characters, no userinfo, no port 0 or non-web port), `https:` only (`http:` only to a
 * loopback host when `allowHttpLoopback`), no special-use names, and an address
 * literal must pass the address policy. The WHATWG parser normalises decimal, octal, hex and
 * short IPv4 forms (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`) to a dotted quad first, so
 * they are judged as the address they are.
 */
export const checkUrl = (raw: string, options: { readonly allowHttpLoopback?: boolean } = {}): UrlCheck => {
  const allowHttpLoopback = options.allowHttpLoopback ?? false;
  if (raw.length > MAX_URL_LENGTH) return refuse(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  // Control characters, userinfo (even empty), port 0 and non-web ports: the core's rules.
  const normal = normalizeDestinationUrl(raw);
  if (!normal.ok) return refuse(normal.reason);
  const url = new URL(normal.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse(`the scheme ${url.protocol} is not allowed (https:// only)`);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return refuse('the URL has no host');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const target: Target = { url, protocol: url.protocol, host, port, literal: isIP(host) !== 0 };
  if (!target.literal) {
    const problem = checkName(host, url.protocol, allowHttpLoopback);
    return problem === undefined ? { ok: true, target } : refuse(problem);
  }
  const verdict = classifyAddress(host, allowHttpLoopback);
  if (!verdict.allowed) return refuse(verdict.reason);
  if (url.protocol === 'http:' && !verdict.loopback) return refuse('plain http:// is allowed only to a loopback host');
  return { ok: true, target };
};
