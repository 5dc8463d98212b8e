import type * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError } from '../domain/errors.js';

/** A TaskEither use case as a Promise-returning function: the façade's form, for embedders. */
export const run =
  <A extends unknown[], R>(useCase: (...args: A) => TE.TaskEither<DomainError, R>) =>
  (...args: A): Promise<E.Either<DomainError, R>> =>
    useCase(...args)();
