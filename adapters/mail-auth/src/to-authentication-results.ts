import type { AuthenticationResults, AuthVerdict } from '@ephemail/core';
import type { AuthenticateResult, DKIMResult, DMARCResult } from 'mailauth';

const VERDICTS: ReadonlySet<string> = new Set<AuthVerdict>(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy']);

/** mailauth's status words as core's verdicts; a word we do not know is an error we cannot read. */
export const toVerdict = (raw: unknown): AuthVerdict => {
  if (raw === 'temperr') return 'temperror';
  if (raw === 'skipped') return 'none';
  return typeof raw === 'string' && VERDICTS.has(raw) ? (raw as AuthVerdict) : 'permerror';
};

const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/**
 * The domain of an address (or a bare domain), lower-cased, or `null` when it is not a
 * plausible host name of two labels or more: garbage in a header must not be stored as a domain.
 */
export const domainOf = (address: string): string | null => {
  const domain = address.slice(address.lastIndexOf('@') + 1).trim().toLowerCase().replace(/\.$/, '');
  const labels = domain.split('.');
  return domain.length <= 253 && labels.length >= 2 && labels.every((label) => LABEL.test(label)) ? domain : null;
};

/** What the SPF check was about, known before mailauth runs. */
export interface SpfIdentity {
  /** The domain SPF evaluates: MAIL FROM's, else the HELO name's (RFC 7208 §2.3, §2.4). */
  readonly domain: string | null;
  /** False without a client IP: there is nothing to check, so the result is `none`. */
  readonly evaluable: boolean;
}

/** The fields mailauth sets on a DKIM result beyond its published typings. */
type DkimRow = DKIMResult & { readonly bodyHash?: string; readonly bodyHashExpecting?: string };

/**
 * mailauth reports a body hash mismatch as `neutral`; RFC 6376 §6.1.3 makes it a verification
 * failure, which RFC 8601 §2.7.1 spells `fail`. Tampered bodies must not look merely unsigned.
 */
const dkimVerdict = (row: DkimRow): AuthVerdict => {
  const verdict = toVerdict(row.status.result);
  const bodyChanged = typeof row.bodyHash === 'string' && row.bodyHash !== row.bodyHashExpecting;
  return verdict === 'neutral' && bodyChanged ? 'fail' : verdict;
};

/**
 * One entry per DKIM-Signature mailauth could read. Its placeholder for an unsigned message (no
 * signing domain) is dropped: no signature, no entry. Alignment is relaxed: mailauth compares the
 * organizational domains (Public Suffix List) of `d=` and of the From address, and only a message
 * with exactly one From address can align at all.
 */
const toDkim = (rows: readonly DkimRow[], singleFrom: boolean): AuthenticationResults['dkim'] =>
  rows
    .filter((row) => typeof row.signingDomain === 'string' && row.signingDomain !== '')
    .map((row) => ({
      result: dkimVerdict(row),
      domain: domainOf(row.signingDomain),
      selector: row.selector || null,
      aligned: singleFrom && Boolean(row.status.aligned),
    }));

/**
 * DMARC of the From domain. Without exactly one From address with a usable domain there is no
 * domain to evaluate (RFC 7489 §6.6.1), so the result is `permerror`, whatever mailauth skipped.
 */
const toDmarc = (dmarc: DMARCResult | false, fromDomain: string | null): AuthenticationResults['dmarc'] => {
  if (fromDomain === null) return { result: 'permerror', domain: null, policy: null };
  if (dmarc === false) return { result: 'none', domain: fromDomain, policy: null };
  const result = toVerdict(dmarc.status.result);
  const policy = result === 'pass' || result === 'fail' ? dmarc.policy || null : null;
  return { result, domain: fromDomain, policy };
};

/** Maps mailauth's answer for one message to what core stores with it. */
export const toAuthenticationResults = (answer: AuthenticateResult, spf: SpfIdentity): AuthenticationResults => {
  const froms = answer.dkim.headerFrom ?? [];
  const singleFrom = froms.length === 1;
  const fromDomain = singleFrom && froms[0] !== undefined ? domainOf(froms[0]) : null;
  const dkim = toDkim(answer.dkim.results ?? [], singleFrom && fromDomain !== null);
  const spfResult = spf.evaluable && answer.spf ? toVerdict(answer.spf.status.result) : 'none';
  return {
    spf: { result: spfResult, domain: spf.domain },
    dkim,
    dmarc: toDmarc(answer.dmarc, fromDomain),
    dkimAligned: dkim.some((row) => row.result === 'pass' && row.aligned),
  };
};

/** The answer when mailauth itself gave up on a message's bytes: nothing could be verified. */
export const unverifiable = (spf: SpfIdentity): AuthenticationResults => ({
  spf: { result: spf.evaluable ? 'permerror' : 'none', domain: spf.domain },
  dkim: [],
  dmarc: { result: 'permerror', domain: null, policy: null },
  dkimAligned: false,
});
