import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import { decideReveal, type RevealOption, type Shown } from '../auth/reveal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { extractionNotFound } from '../domain/errors.js';
import type { IdentityRecord } from '../domain/identity.js';
import type { SecretType } from '../extraction/types.js';
import type { ExtractionAnswer } from '../mail/extraction-pick.js';
import { answerOfType, asWinner } from '../mail/extraction-pick.js';
import { explainExtraction } from '../mail/extraction-explain.js';
import type { ExtractionRecord, PublicExtraction, RevealedExtraction } from '../mail/extraction-record.js';
import { toPublicExtraction, toRevealedExtraction } from '../mail/extraction-record.js';
import type { Waiters } from '../mail/waiters.js';
import { C } from '../store/collections.js';
import { loadIdentity } from './identity-access.js';
import { currentIdentity, waitWhileLive, type WaitBudget } from './wait-while-live.js';

/**
 * How `extractions/latest` reads: which type (any by default), newer than which, waiting how
 * long; redacted unless `reveal` is asked for by a principal holding `secrets:read`.
 */
export interface LatestExtractionOptions extends WaitBudget, RevealOption {
  /** Wait for an extraction newer than this one (by its time; another id of the same instant counts). */
  readonly after?: string;
  /** Only a secret of this type: the latest extraction holding one, as winner or sure runner-up. */
  readonly type?: SecretType;
  /** Also why: the signal contributions of the answer and each candidate (worked out again, ADR 0057). */
  readonly explain?: boolean;
}

/** The extraction a read points at: the latest, or the latest holding a secret of `type`. */
const pointerOf = (identity: IdentityRecord, type: SecretType | undefined): string | null => {
  const pointers = identity.latest_extraction_by_type;
  // An identity that had mail before pointers were kept is read from its latest extraction.
  if (type === undefined || pointers === undefined) return identity.latest_extraction_id ?? null;
  return pointers[type] ?? null;
};

const getExtraction = (deps: CoreDeps, id: string) => deps.store.get(C.extractions, id) as Promise<ExtractionRecord | undefined>;

/** Whether an extraction is newer than the one named `after` (always, when that one is unknown to this identity). */
const newerThanAfter = (deps: CoreDeps, identityId: string, after: string | undefined) => {
  let seen: Promise<ExtractionRecord | undefined> | undefined;
  return async (found: ExtractionRecord): Promise<boolean> => {
    if (after === undefined) return true;
    if (found.id === after) return false;
    seen ??= getExtraction(deps, after).then((record) => (record?.identity_id === identityId ? record : undefined));
    const held = await seen;
    return held === undefined || found.extracted_at >= held.extracted_at;
  };
};

/** The answer a read finds now: the pointed-at extraction, as its winner or its secret of `type`. */
const answerFinder = (deps: CoreDeps, identityId: string, options: LatestExtractionOptions) => {
  const newer = newerThanAfter(deps, identityId, options.after);
  return async (current: IdentityRecord): Promise<ExtractionAnswer | undefined> => {
    const id = pointerOf(current, options.type);
    if (id === null || id === options.after) return undefined;
    const record = await getExtraction(deps, id);
    if (record === undefined || !(await newer(record))) return undefined;
    return options.type === undefined ? asWinner(record) : answerOfType(record, options.type);
  };
};

/** Nothing found: none at all, or none newer than the caller's (which is still the latest). */
const notFound = async (deps: CoreDeps, identityId: string, options: LatestExtractionOptions): Promise<DomainError> => {
  const current = await currentIdentity(deps, identityId);
  const latest = current === undefined ? null : pointerOf(current, options.type);
  const held = options.after !== undefined && latest === options.after;
  return extractionNotFound(identityId, held ? { after: options.after!, waitSeconds: options.waitSeconds } : undefined, options.type);
};

/** The answer found, explained when asked (worked out again, ADR 0057), not yet shown. */
const findAnswer = (deps: CoreDeps, waiters: Waiters, principal: Principal, identityId: string, options: LatestExtractionOptions): TE.TaskEither<DomainError, ExtractionAnswer> =>
  pipe(
    () => loadIdentity(deps, principal, identityId),
    TE.flatMap((identity) => async () => {
      const outcome = await waitWhileLive(deps, waiters, identity, answerFinder(deps, identity.id, options), options);
      if (E.isLeft(outcome)) return outcome;
      const answer = outcome.right;
      if (answer === undefined) return E.left(await notFound(deps, identity.id, options));
      return E.right(options.explain === true ? { ...answer, explanation: await explainExtraction(deps, identity, answer) } : answer);
    }),
  );

/**
 * The identity's latest extraction, or with `type` the latest holding a secret of that type
 * (ADR 0051), waiting for one when asked to; a wait on a squashed or expired identity answers
 * that state at once (ADR 0052). Redacted, unless `reveal` is asked for and the principal holds
 * `secrets:read` (checked before anything is read or waited for, ADR 0063); the answer's type
 * follows the options.
 */
export const latestExtraction =
  (deps: CoreDeps, waiters: Waiters) =>
  <O extends LatestExtractionOptions>(principal: Principal, identityId: string, options: O): TE.TaskEither<DomainError, Shown<O, PublicExtraction, RevealedExtraction>> =>
    pipe(
      TE.fromEither(decideReveal(principal, options)),
      TE.flatMap((revealed) =>
        pipe(
          findAnswer(deps, waiters, principal, identityId, options),
          TE.map((answer): PublicExtraction | RevealedExtraction => (revealed ? toRevealedExtraction(answer) : toPublicExtraction(answer))),
        ),
      ),
    ) as TE.TaskEither<DomainError, Shown<O, PublicExtraction, RevealedExtraction>>;
