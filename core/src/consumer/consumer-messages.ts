import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import type { Page } from '../use-cases/identities.js';
import { getMessage, listMessages, type RevealOption, type toMessageSummary, type toMessageView } from '../use-cases/mail-reads.js';
import { asOwner } from './owner-reveal.js';

export type ConsumerMessageSummary = ReturnType<typeof toMessageSummary>;
export type ConsumerMessage = ReturnType<typeof toMessageView>;

/**
 * The messages of one of the consumer's identities, newest first, masked unless the consumer asks
 * to reveal them (`asOwner`). The identity is looked up in the consumer's personal project, so
 * another consumer's (or an agent's) identity is not found.
 */
export const listConsumerMessages =
  (deps: CoreDeps) =>
  (principal: Principal, identityId: string, page: { readonly limit: number; readonly offset: number } & RevealOption): TE.TaskEither<DomainError, Page<ConsumerMessageSummary>> =>
    listMessages(deps)(asOwner(principal, page), identityId, page);

/** One message of one of the consumer's identities: subject, sender, text and HTML (masked unless revealed). */
export const readConsumerMessage =
  (deps: CoreDeps) =>
  (principal: Principal, identityId: string, messageId: string, options: RevealOption = {}): TE.TaskEither<DomainError, ConsumerMessage> =>
    getMessage(deps)(asOwner(principal, options), identityId, messageId, options);
