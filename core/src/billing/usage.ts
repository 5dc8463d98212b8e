import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import { planLimitsOf } from './plan-in-force.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { C } from '../store/collections.js';
import { liveIdentityCount } from '../store/quota.js';
import { loadAccount } from './account.js';
import type { ApiCallCounter } from './api-calls.js';
import { monthOf } from './api-calls.js';

/** The calendar month (UTC) that holds `at`: API calls are counted per such month. */
const calendarMonth = (at: Date): { start: string; end: string } => {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start: start.toISOString(), end: end.toISOString() };
};

/**
 * The organization's use this month against its plan: identities created and live, API calls,
 * custom domains. The period is the calendar month (UTC), the unit API calls are counted in;
 * `billing_period` adds the subscription's own period when there is one.
 */
export const getUsage =
  (deps: CoreDeps, calls: ApiCallCounter) =>
  (principal: Principal): TE.TaskEither<DomainError, Record<string, unknown>> =>
  async () => {
    const now = deps.clock.now();
    const period = calendarMonth(now);
    const [limits, created, live, apiCalls, domains, account] = await Promise.all([
      planLimitsOf(deps, principal.orgId),
      deps.store.count(C.identities, { where: { org_id: principal.orgId }, range: { field: 'created_at', gte: period.start, lt: period.end } }),
      liveIdentityCount(deps, principal.orgId),
      calls.count(principal.orgId, monthOf(now)),
      deps.store.count(C.domains, { where: { org_id: principal.orgId } }),
      loadAccount(deps, principal.orgId),
    ]);
    return E.right({
      period_start: period.start,
      period_end: period.end,
      identities_created: created,
      identities_limit: limits.identities,
      active_identities: live,
      api_calls: apiCalls,
      api_calls_limit: limits.apiCallsPerMonth,
      domains_registered: domains,
      domains_limit: limits.domains,
      billing_period:
        account?.subscription === undefined || account.subscription === null ? null : { start: account.subscription.current_period_start, end: account.subscription.current_period_end },
    });
  };
