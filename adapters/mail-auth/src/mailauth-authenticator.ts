import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { AuthenticationResults, MessageAuthenticator } from '@ephemail/core';
import { authenticate, type AuthenticateOptions } from 'mailauth';
import { withDeadline } from './deadline-resolver.js';
import type { DnsResolver } from './dns-resolver.js';
import { domainOf, toAuthenticationResults, unverifiable, type SpfIdentity } from './to-authentication-results.js';

/** Options of {@link createMailauthAuthenticator}. */
export interface MailauthAuthenticatorOptions {
  /** Every DNS lookup of the checks goes through this; see `createDnsResolver`. */
  readonly resolver: DnsResolver;
  /** Our own host name, as SPF's `%{r}` macro sees it. Default: the machine's host name. */
  readonly mta?: string;
  /** Time all DNS lookups of one message share, in milliseconds. Default 10000. */
  readonly timeoutMs?: number;
}

/** Defaults of {@link createMailauthAuthenticator}. */
export const MAILAUTH_AUTHENTICATOR_DEFAULTS = { timeoutMs: 10_000 } as const;

type Context = Parameters<MessageAuthenticator['authenticate']>[1];

/** A HELO name is an SPF identity only when it is a domain, not an address literal. */
const heloDomain = (helo: string | undefined): string | null =>
  helo === undefined || isIP(helo.replace(/^\[(?:ipv6:)?|\]$/gi, '')) !== 0 ? null : domainOf(helo);

/** RFC 7208 §2.4: MAIL FROM's domain, or the HELO name's for the null reverse-path. */
const spfIdentity = (context: Context): SpfIdentity => {
  const mailFrom = context.mailFrom === null || context.mailFrom.trim() === '' ? null : context.mailFrom;
  return {
    domain: mailFrom === null ? heloDomain(context.heloName) : domainOf(mailFrom),
    evaluable: context.remoteAddress !== undefined && isIP(context.remoteAddress) !== 0,
  };
};

/** Node's `Buffer` view of the caller's bytes, without a copy. */
const asBuffer = (raw: Uint8Array): Buffer =>
  Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);

/**
 * Creates a {@link MessageAuthenticator} on mailauth's `authenticate()`: SPF for the client IP,
 * HELO name and MAIL FROM; every DKIM signature; DMARC of the From domain. ARC and BIMI are
 * switched off, since nothing stores them. All lookups of one message share `timeoutMs`; a lookup
 * past it fails as a DNS timeout, so its check reports `temperror`. Never throws: if mailauth
 * gives up on the bytes altogether, every check reports `permerror`.
 */
export const createMailauthAuthenticator = (options: MailauthAuthenticatorOptions): MessageAuthenticator => {
  const mta = options.mta ?? hostname();
  const timeoutMs = options.timeoutMs ?? MAILAUTH_AUTHENTICATOR_DEFAULTS.timeoutMs;
  return {
    async authenticate(raw, context): Promise<AuthenticationResults> {
      const spf = spfIdentity(context);
      // mailauth's typings narrow the answers it reads; it copes with whatever a lookup yields.
      const resolver = withDeadline(options.resolver, Date.now() + timeoutMs) as AuthenticateOptions['resolver'];
      try {
        const answer = await authenticate(asBuffer(raw), {
          ...(spf.evaluable ? { ip: context.remoteAddress } : {}),
          ...(context.heloName ? { helo: context.heloName } : {}),
          ...(context.mailFrom ? { sender: context.mailFrom } : {}),
          mta,
          resolver,
          disableArc: true,
          disableBimi: true,
        });
        return toAuthenticationResults(answer, spf);
      } catch {
        return unverifiable(spf);
      }
    },
  };
};
