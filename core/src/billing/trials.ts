import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { invalidPlan, trialAlreadyConverted, trialAlreadyExists, trialCanceled, trialExpired, trialNotFound } from '../domain/errors.js';
import type { PlanName } from '../domain/plans.js';
import { PLAN_NAMES } from '../domain/plans.js';
import { iso, isoPlus } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { keep, updateWithRetry, write } from '../store/compare-and-set.js';
import { forgetPlan, readPlanInForce } from './plan-in-force.js';
import type { TrialRecord } from './trial-record.js';
import { toTrial, TRIAL_DAYS, TRIAL_GRACE_DAYS, TRIAL_PLANS, type Trial } from './trial-record.js';

const DAY_MS = 86_400_000;

/** The claim that makes a trial one per organization, ever: insert-if-absent on the org. */
const claimId = (orgId: string): string => `trial:${orgId}`;

export const loadTrial = async (deps: CoreDeps, principal: Pick<Principal, 'orgId'>, id: string): Promise<E.Either<DomainError, TrialRecord & StoredDocument>> => {
  const record = (await deps.store.get(C.trials, id)) as (TrialRecord & StoredDocument) | undefined;
  return record === undefined || record.org_id !== principal.orgId ? E.left(trialNotFound(id)) : E.right(record);
};

export { trialOf } from './plan-in-force.js';

/**
 * Starts the organization's only trial: `ACTIVE` for 7 days on `plan`. The limits in force are
 * then the higher of the organization's own plan and the trial's (limits-in-force.ts): a trial of
 * a plan below the organization's changes nothing, and none lowers anything.
 */
export const startTrial =
  (deps: CoreDeps) =>
  (principal: Principal, input: { readonly plan: string }): TE.TaskEither<DomainError, Trial> =>
  async () => {
    if (!(TRIAL_PLANS as readonly string[]).includes(input.plan)) return E.left(invalidPlan(input.plan, TRIAL_PLANS));
    const plan = input.plan as PlanName;
    const id = deps.ids.next('trial');
    if ((await deps.store.insert(C.counters, { id: claimId(principal.orgId), trial_id: id })) !== 'inserted') return E.left(trialAlreadyExists());
    const now = deps.clock.now();
    const expires = isoPlus(now, TRIAL_DAYS * DAY_MS);
    const record: TrialRecord = {
      id,
      org_id: principal.orgId,
      plan,
      status: 'ACTIVE',
      started_at: iso(now),
      expires_at: expires,
      grace_until: isoPlus(now, (TRIAL_DAYS + TRIAL_GRACE_DAYS) * DAY_MS),
      converted_at: null,
      canceled_at: null,
      purged_at: null,
      open: true,
      due_at: expires,
    };
    await deps.store.insert(C.trials, record);
    forgetPlan(deps, principal.orgId);
    return E.right(toTrial(record, now));
  };

export const getTrial =
  (deps: CoreDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, Trial> =>
    pipe(
      () => loadTrial(deps, principal, id),
      TE.map((record) => toTrial(record, deps.clock.now())),
    );

/** Whether a trial may still be converted; the reason why not otherwise. */
export const convertible = (trial: TrialRecord, now: string): DomainError | undefined => {
  if (trial.status === 'CONVERTED') return trialAlreadyConverted(trial.id);
  if (trial.status === 'CANCELED') return trialCanceled(trial.id);
  if (trial.purged_at !== null || trial.grace_until <= now) return trialExpired(trial.id);
  return undefined;
};

/** A trial's checkout completed: `CONVERTED`, from ACTIVE or from EXPIRED within the grace. */
export const convertTrial = async (deps: CoreDeps, trialId: string): Promise<void> => {
  const now = iso(deps.clock.now());
  const outcome = await updateWithRetry<TrialRecord, undefined>(deps.store, C.trials, trialId, (current) =>
    convertible(current, now) !== undefined ? keep(undefined) : write({ ...current, status: 'CONVERTED', converted_at: now, open: false, due_at: '' }, undefined),
  );
  if (outcome !== undefined) forgetPlan(deps, outcome.doc.org_id);
};

/** Cancels an active (or expired, within grace) trial: its plan stops counting; nothing else changes. */
export const cancelTrial =
  (deps: CoreDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, Trial> =>
    pipe(
      () => loadTrial(deps, principal, id),
      TE.flatMap((trial) => async () => {
        const now = deps.clock.now();
        const refused = convertible(trial, iso(now));
        if (refused !== undefined) return E.left(refused);
        const outcome = await updateWithRetry<TrialRecord, DomainError | undefined>(deps.store, C.trials, id, (current) => {
          const blocked = convertible(current, iso(now));
          return blocked !== undefined ? keep(blocked) : write({ ...current, status: 'CANCELED', canceled_at: iso(now), open: false, due_at: '' }, undefined);
        });
        if (outcome?.result !== undefined) return E.left(outcome.result);
        forgetPlan(deps, trial.org_id);
        return E.right(toTrial(outcome!.doc, now));
      }),
    );

/**
 * Whether the trial gave the organization more than it is entitled to by itself. Only then are
 * there trial resources to delete: an organization whose own plan covers the trial's made what it
 * made within its own limits, and keeps it.
 */
const outgrewEntitlement = async (deps: CoreDeps, trial: TrialRecord): Promise<boolean> => {
  const { plan } = await readPlanInForce(deps, trial.org_id);
  return PLAN_NAMES.indexOf(plan) < PLAN_NAMES.indexOf(trial.plan);
};

/**
 * One pass of the trials' clock (run by the maintenance job, any number of hosts): an ACTIVE
 * trial past `expires_at` becomes EXPIRED (its plan stopped counting at `expires_at` already); an
 * EXPIRED one past its grace has its resources deleted (the identities made since it started, when
 * the trial's plan is above what the organization is entitled to) and stays EXPIRED for good.
 * Each step is a compare-and-set on the trial, so two hosts never both take it.
 */
export const trialClockTick = async (deps: CoreDeps, squashOrgIdentities: (orgId: string, since: string) => Promise<number>): Promise<{ expired: number; purged: number }> => {
  const now = iso(deps.clock.now());
  const due = (await deps.store.find(C.trials, { where: { open: true }, range: { field: 'due_at', gte: '', lte: now }, limit: 100 })) as unknown as (TrialRecord & StoredDocument)[];
  let expired = 0;
  let purged = 0;
  for (const trial of due) {
    const { version, ...rest } = trial;
    if (trial.status === 'ACTIVE') {
      if (await deps.store.replace(C.trials, { ...rest, status: 'EXPIRED', due_at: trial.grace_until }, version)) {
        forgetPlan(deps, trial.org_id);
        expired += 1;
      }
    } else if (trial.status === 'EXPIRED') {
      if (await deps.store.replace(C.trials, { ...rest, purged_at: now, open: false, due_at: '' }, version)) {
        if (await outgrewEntitlement(deps, trial)) await squashOrgIdentities(trial.org_id, trial.started_at);
        purged += 1;
      }
    }
  }
  return { expired, purged };
};
