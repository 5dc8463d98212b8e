import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import { decideReveal, type NoReveal, type RevealOption, type Shown } from '../auth/reveal.js';
import type { CoreDeps } from '../deps.js';
import { normalizeDestinationUrl } from '../domain/destination-url.js';
import type { DomainError } from '../domain/errors.js';
import { identityAlreadySquashed, identityExpired, invalidRequest, runNotFound, secretNotAvailable } from '../domain/errors.js';
import { isLive } from '../domain/identity.js';
import { iso } from '../domain/time.js';
import { redact } from '../extraction/redact.js';
import type { LinkKind, SecretType } from '../extraction/types.js';
import type { ExtractionRecord } from '../mail/extraction-record.js';
import type { CreateRunBody } from '../schemas.js';
import { RUN_TIMEOUT_SECONDS } from '../schemas.js';
import { C } from '../store/collections.js';
import { loadIdentity } from '../use-cases/identity-access.js';
import type { ReliabilityDeps } from './reliability-deps.js';
import type { FlowType, Run, RunRecord, RunRequest } from './run-record.js';
import { toRun } from './run-record.js';

/** A run of the caller's project; another tenant's id answers exactly like an unknown one. */
export const loadRun = async (deps: CoreDeps, principal: Pick<Principal, 'orgId' | 'projectId'>, id: string): Promise<E.Either<DomainError, RunRecord>> => {
  const record = (await deps.store.get(C.runs, id)) as RunRecord | undefined;
  if (record === undefined || record.org_id !== principal.orgId || record.project_id !== principal.projectId) return E.left(runNotFound(id));
  return E.right(record);
};

/** The target URL under the webhook URL rules, normalised as stored. */
const checkTarget = async (deps: ReliabilityDeps, raw: string): Promise<E.Either<DomainError, string>> => {
  const refused = (reason: string) => E.left(invalidRequest('The target URL is not allowed.', [{ path: 'body.target_url', message: reason }]));
  const normal = normalizeDestinationUrl(raw);
  if (!normal.ok) return refused(normal.reason);
  const verdict = await deps.reliability.urlGuard.check(normal.url, { allowHttpLoopback: deps.config.allowHttpLoopback });
  return verdict.ok ? E.right(normal.url) : refused(verdict.reason);
};

const requestOf = (input: CreateRunBody['request']): RunRequest | null =>
  input === undefined
    ? null
    : {
        headers: Object.fromEntries(Object.entries(input.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
        body_template: input.body_template ?? null,
        content_type: input.content_type ?? 'application/json',
      };

const newRun = (deps: CoreDeps, principal: Principal, flow: FlowType, input: CreateRunBody, email: string, url: string): RunRecord => {
  const now = iso(deps.clock.now());
  return {
    id: deps.ids.next('run'),
    org_id: principal.orgId,
    project_id: principal.projectId,
    flow_type: flow,
    status: 'pending',
    identity_id: input.identity_id,
    email,
    target_url: url,
    timeout_seconds: input.timeout_seconds ?? RUN_TIMEOUT_SECONDS.default,
    request: requestOf(input.request),
    created_at: now,
    updated_at: now,
    open: true,
    due_at: now,
    lease_owner: null,
    trigger_started_at: null,
    triggered_at: null,
    target_status: null,
    deadline_at: null,
    email_received_at: null,
    message_id: null,
    extraction_id: null,
    completed_at: null,
    failure_reason: null,
    result: null,
  };
};

/**
 * Starts a run: `pending`, due at once for its trigger, which a run worker (this process's is
 * woken at once) sends. The identity must be a live identity of the project.
 */
export const createRun =
  (deps: ReliabilityDeps, flow: FlowType) =>
  (principal: Principal, input: CreateRunBody): TE.TaskEither<DomainError, Run> =>
    pipe(
      () => loadIdentity(deps, principal, input.identity_id),
      TE.filterOrElseW(
        (identity) => isLive(identity.status),
        (identity) => (identity.status === 'squashed' ? identityAlreadySquashed(identity.id) : identityExpired(identity.id)),
      ),
      TE.flatMap((identity) => async () => E.map((url: string) => newRun(deps, principal, flow, input, identity.email, url))(await checkTarget(deps, input.target_url))),
      TE.flatMap((record) => async () => {
        await deps.store.insert(C.runs, record);
        deps.reliability.notify();
        return E.right(toRun(record));
      }),
    );

/** One run of the caller's project. */
export const getRun =
  (deps: CoreDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, Run> =>
    pipe(() => loadRun(deps, principal, id), TE.map(toRun));

/** The secret a completed run found, redacted. */
export interface RunSecret {
  readonly run_id: string;
  readonly type: SecretType;
  readonly has_secret: true;
  readonly redacted_value: string;
  readonly link_kind: LinkKind | null;
}

/** With a reveal (`secrets:read`): the same and the raw code or link. */
export interface RevealedRunSecret extends RunSecret {
  readonly value: string;
}

/** The extraction a completed run found, while its identity lives. */
const runExtraction = (deps: CoreDeps, principal: Principal, id: string): TE.TaskEither<DomainError, { run: RunRecord; extraction: ExtractionRecord }> =>
  pipe(
    () => loadRun(deps, principal, id),
    TE.flatMap((run) => async () => {
      if (run.status !== 'completed' || run.extraction_id === null) return E.left(secretNotAvailable(run.id, `The run is ${run.status}: there is no secret to show.`));
      const identity = await loadIdentity(deps, principal, run.identity_id);
      if (E.isLeft(identity) || !isLive(identity.right.status)) {
        return E.left(secretNotAvailable(run.id, 'The identity has ended: its secrets are no longer shown.'));
      }
      const extraction = (await deps.store.get(C.extractions, run.extraction_id)) as ExtractionRecord | undefined;
      if (extraction === undefined) return E.left(secretNotAvailable(run.id, 'The extraction is gone.'));
      return E.right({ run, extraction });
    }),
  );

const runSecretOf = (run: RunRecord, extraction: ExtractionRecord, revealed: boolean): RunSecret | RevealedRunSecret => {
  const shown: RunSecret = { run_id: run.id, type: extraction.type, has_secret: true, redacted_value: redact(extraction), link_kind: extraction.link_kind };
  return revealed ? { ...shown, value: extraction.value } : shown;
};

/**
 * The secret a completed run found, while its identity lives: redacted, or raw when `reveal` is
 * asked for by a principal holding `secrets:read` (checked first, so a refusal says nothing of
 * the run).
 */
export const getRunSecret =
  (deps: CoreDeps) =>
  <O extends RevealOption = NoReveal>(principal: Principal, id: string, options?: O): TE.TaskEither<DomainError, Shown<O, RunSecret, RevealedRunSecret>> =>
    pipe(
      TE.fromEither(decideReveal(principal, options)),
      TE.flatMap((revealed) => pipe(runExtraction(deps, principal, id), TE.map(({ run, extraction }) => runSecretOf(run, extraction, revealed)))),
    ) as TE.TaskEither<DomainError, Shown<O, RunSecret, RevealedRunSecret>>;
