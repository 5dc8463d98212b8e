import { domainToASCII } from 'node:url';

export type Hostname = { readonly ok: true; readonly domain: string } | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): Hostname => ({ ok: false, reason });

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A hostname as registrations compare it: lower case, no trailing dot, internationalised labels
 * in punycode (`bücher.example` → `xn--bcher-kva.example`, by the WHATWG domain-to-ASCII rules
 * that ship with Node's ICU). At least two labels of letters, digits and inner hyphens, a
 * non-numeric top label, 253 characters at most: a name that can carry MX and TXT records.
 */
export const normalizeHostname = (raw: string): Hostname => {
  const trimmed = raw.trim().replace(/\.$/, '');
  if (trimmed === '') return refuse('must be a domain name');
  if (/[\s/:@?#[\]\\]/.test(trimmed)) return refuse('must be a bare domain name (no scheme, port, path or address)');
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (ascii === '') return refuse('is not a valid internationalised domain name');
  if (ascii.length > 253) return refuse('is longer than 253 characters');
  const labels = ascii.split('.');
  if (labels.length < 2) return refuse('must have at least two labels (example.com)');
  if (!labels.every((label) => LABEL.test(label))) return refuse('has a label that is not letters, digits and inner hyphens of 1 to 63 characters');
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return refuse('must not end in a numeric label (an address is not a domain)');
  return { ok: true, domain: ascii };
};

/** Whether `domain` is `parent` or one of its subdomains (both normalised). */
export const isWithin = (domain: string, parent: string): boolean => domain === parent || domain.endsWith(`.${parent}`);
