import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../domain/errors.js';
import { forbidden } from '../domain/errors.js';
import type { Principal } from './principal.js';

/** How a read shows secrets: redacted (the default), or raw when the caller asks and may. */
export interface RevealOption {
  /** Ask for raw values; the principal must hold `secrets:read`, else the read is `Forbidden`. */
  readonly reveal?: boolean;
}

/**
 * Whether a read shows raw values: `false` when it did not ask, `true` when it asked and the
 * principal holds `secrets:read`, `Forbidden` when it asked without. The one place the service
 * decides it: every read of a secret (extractions, messages, runs, consumer and free-tier reads)
 * asks here, before it reads anything, so a refusal says nothing of what exists.
 */
export const decideReveal = (principal: Pick<Principal, 'scopes'>, options: RevealOption | undefined): E.Either<DomainError, boolean> => {
  if (options?.reveal !== true) return E.right(false);
  return principal.scopes.includes('secrets:read') ? E.right(true) : E.left(forbidden(['secrets:read']));
};

type RevealOf<O> = O extends { readonly reveal?: infer R } ? R : undefined;

/**
 * What a read answers for the options it was given: the revealed shape `R` for `reveal: true`,
 * the public shape `P` when `reveal` is `false` or absent, either when it is only known to be a
 * boolean. So `latest(p, id, { waitSeconds: 0, reveal: true })` is typed as revealed, and a read
 * without `reveal` can never be used as if it held a raw value.
 */
export type Shown<O, P, R> = [RevealOf<O>] extends [true] ? R : [RevealOf<O>] extends [false | undefined] ? P : P | R;

/** The options of a read that passed none: it answers the public shape. */
export type NoReveal = { readonly reveal?: false };
