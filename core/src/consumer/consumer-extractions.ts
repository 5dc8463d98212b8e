import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { Shown } from '../auth/reveal.js';
import type { DomainError } from '../domain/errors.js';
import type { PublicExtraction, RevealedExtraction } from '../mail/extraction-record.js';
import type { Waiters } from '../mail/waiters.js';
import type { CoreDeps } from '../deps.js';
import { latestExtraction, type LatestExtractionOptions } from '../use-cases/latest-extraction.js';
import { asOwner } from './owner-reveal.js';

/**
 * The latest extraction of one of the consumer's identities (another consumer's or an agent's is
 * not found), as the agent API answers it: redacted by default, raw when the consumer asks to
 * reveal it, which their own identity needs no scope for (`asOwner`, ADR 0053).
 */
export const latestConsumerExtraction =
  (deps: CoreDeps, waiters: Waiters) =>
  <O extends LatestExtractionOptions>(principal: Principal, identityId: string, options: O): TE.TaskEither<DomainError, Shown<O, PublicExtraction, RevealedExtraction>> =>
    latestExtraction(deps, waiters)(asOwner(principal, options), identityId, options);
