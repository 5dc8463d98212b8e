import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import type { Page } from '../use-cases/identities.js';
import { getMessage, listMessages, type RevealOption, type toMessageSummary, type toMessageView } from '../use-cases/mail-reads.js';

export type ConsumerMessageSummary = ReturnType<typeof toMessageSummary>;
export type ConsumerMessage = ReturnType<typeof toMessageView>;

/**
 * A consumer owns the identities of their personal project, so asking is enough to see their
 * mail's secrets raw: the session holds no `secrets:read`, and this read gains it for itself only
 * when `reveal` is asked for. Unasked, the read masks secrets exactly as the agent API does, so a
 * page or a screen share shows no code by accident.
 */
const asOwner = (principal: Principal, options: RevealOption): Principal =>
  options.reveal === true && !principal.scopes.includes('secrets:read') ? { ...principal, scopes: [...principal.scopes, 'secrets:read'] } : principal;

/**
 * The messages of one of the consumer's identities, newest first. The identity is looked up in the
 * consumer's personal project, so another consumer's (or an agent's) identity is not found.
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
