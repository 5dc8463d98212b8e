import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DnsCheck, DomainError } from '../domain/errors.js';
import { dependencyTimeout, dependencyUnavailable, dnsVerificationFailed, domainAlreadyRegistered, domainNotFound } from '../domain/errors.js';
import { iso } from '../domain/time.js';
import { C } from '../store/collections.js';
import { updateWithRetry, write } from '../store/compare-and-set.js';
import type { DomainDeps } from './domain-deps.js';
import type { DomainRecord, DomainView } from './domain-record.js';
import { mxValue, domainViewOf, txtHost, txtValue } from './domain-record.js';
import { loadDomain } from './domains.js';
import { parentVerifiedByAnother } from './parent-claims.js';
import type { DnsAnswer, MxRecord } from './ports.js';

const bareName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

/** An answer that says nothing about the records: the check must be asked again later. */
const unanswered = (answers: readonly DnsAnswer<unknown>[]): DomainError | undefined => {
  if (answers.some((a) => a.kind === 'timeout')) return dependencyTimeout('dns', 'The DNS servers did not answer in time; try again.');
  const failed = answers.find((a): a is Extract<DnsAnswer<unknown>, { kind: 'failed' }> => a.kind === 'failed');
  return failed === undefined ? undefined : dependencyUnavailable('dns', `The DNS lookup failed (${failed.reason}); try again.`);
};

const records = <T>(answer: DnsAnswer<T>): readonly T[] => (answer.kind === 'found' ? answer.records : []);

/**
 * Judges what DNS answered. MX: any record whose exchange is the MX host (the priority is not
 * judged: mail reaches the host whatever it is). TXT: any record equal to the expected value.
 */
const judge = (deps: DomainDeps, record: DomainRecord, mx: DnsAnswer<MxRecord>, txt: DnsAnswer<string>): [DnsCheck, DnsCheck] => {
  const mxHost = bareName(deps.domains.mxHost);
  const expectedTxt = txtValue(record.token);
  return [
    {
      type: 'MX',
      host: record.domain,
      expected: mxValue(deps.domains.mxHost),
      status: records(mx).some((r) => bareName(r.exchange) === mxHost) ? 'verified' : 'missing',
      found: records(mx).map((r) => `${r.priority} ${bareName(r.exchange)}`),
    },
    {
      type: 'TXT',
      host: txtHost(record.domain),
      expected: expectedTxt,
      status: records(txt).some((value) => value.trim() === expectedTxt) ? 'verified' : 'missing',
      found: [...records(txt)],
    },
  ];
};

/** The record after a check: verified with both records found, else back to pending. */
const afterCheck = (current: DomainRecord, checks: readonly [DnsCheck, DnsCheck], now: string): DomainRecord => {
  const verified = checks.every((c) => c.status === 'verified');
  return {
    ...current,
    status: verified ? 'verified' : 'pending_verification',
    mx_status: checks[0].status === 'verified' ? 'verified' : 'pending',
    txt_status: checks[1].status === 'verified' ? 'verified' : 'pending',
    verified_at: verified ? (current.verified_at ?? now) : null,
    checked_at: now,
    updated_at: now,
    last_check: checks,
  };
};

/**
 * Looks the domain's MX and TXT records up and records what was found. Both found: `verified`
 * (200). Otherwise `dns_verification_failed` naming each record and what DNS holds there, and the
 * domain is `pending_verification`, a verified one too (records removed since: new identities
 * wait until it verifies again). DNS that does not answer changes nothing and is retryable.
 */
export const verifyDomain =
  (deps: DomainDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, DomainView> =>
    pipe(
      () => loadDomain(deps, principal, id),
      TE.flatMap((record) => async () => {
        // Another organization verified a domain above this one since it was registered.
        const parent = await parentVerifiedByAnother(deps, principal.orgId, record.domain);
        if (parent !== undefined) return E.left(domainAlreadyRegistered(record.domain, parent));
        const [mx, txt] = await Promise.all([deps.domains.dns.mx(record.domain), deps.domains.dns.txt(txtHost(record.domain))]);
        const trouble = unanswered([mx, txt]);
        if (trouble !== undefined) return E.left(trouble);
        const checks = judge(deps, record, mx, txt);
        const now = iso(deps.clock.now());
        const outcome = await updateWithRetry<DomainRecord, DomainRecord>(deps.store, C.domains, id, (current) => {
          const next = afterCheck(current, checks, now);
          return write(next, next);
        });
        if (outcome === undefined) return E.left(domainNotFound(id));
        if (outcome.result.status !== 'verified') return E.left(dnsVerificationFailed(record.domain, checks));
        return E.right(domainViewOf(outcome.result, deps.domains.mxHost));
      }),
    );
