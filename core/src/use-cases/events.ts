import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { eventNotFound } from '../domain/errors.js';
import type { EventRecord, PublicEvent } from '../domain/event.js';
import { toPublicEvent } from '../domain/event.js';
import { C } from '../store/collections.js';
import { findPage } from '../store/page.js';
import type { Page } from './identities.js';
import { loadIdentity } from './identity-access.js';

/** An identity's events, newest first. */
export const listEvents =
  (deps: CoreDeps) =>
  (principal: Principal, identityId: string, page: { limit: number; offset: number }): TE.TaskEither<DomainError, Page<PublicEvent>> =>
    pipe(
      () => loadIdentity(deps, principal, identityId),
      TE.flatMap((identity) => async () => {
        const query = { where: { identity_id: identity.id }, newestBy: 'seq' };
        return E.right(await findPage(deps.store, C.events, query, page, (doc) => toPublicEvent(doc as unknown as EventRecord)));
      }),
    );

/** An identity's most recent event; `EventNotFound` when it has none. */
export const latestEvent =
  (deps: CoreDeps) =>
  (principal: Principal, identityId: string): TE.TaskEither<DomainError, PublicEvent> =>
    pipe(
      listEvents(deps)(principal, identityId, { limit: 1, offset: 0 }),
      TE.flatMap((page) => TE.fromEither(page.items[0] ? E.right(page.items[0]) : E.left(eventNotFound(identityId)))),
    );
