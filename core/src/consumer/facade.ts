import type { BillingDeps } from '../billing/billing-deps.js';
import type { MailSender } from '../mail/ports.js';
import type { Waiters } from '../mail/waiters.js';
import type { Principal } from '../auth/principal.js';
import { run } from '../use-cases/run.js';
import { inboxAfter, logHead } from './inbox.js';
import { listNotifications, markNotificationRead, notifyConsumers } from './notifications.js';
import { relayTick, type RelayOptions } from '../store/event-relay.js';
import { authenticateSession, logIn, revokeSession, signUp, verifyMagicLink } from './accounts.js';
import type { ConsumerDeps } from './consumer-deps.js';
import { latestConsumerExtraction } from './consumer-extractions.js';
import { createConsumerIdentity, listConsumerIdentities, startConsumerUpgrade } from './consumer-identities.js';
import { listConsumerMessages, readConsumerMessage } from './consumer-messages.js';
import { sessionState } from './session-state.js';

export interface ConsumerOptions {
  readonly mailer?: MailSender;
  /** The public base of the host, for the links mailed (read when a link is made). */
  readonly linkBase?: () => string;
  readonly onMagicLink?: (email: string, link: string) => void;
}

/** The `consumer` section: people's accounts by magic link, their sessions and identities. */
export const consumerFacade = (deps: BillingDeps, options: ConsumerOptions, waiters: Waiters) => {
  const cdeps: ConsumerDeps & BillingDeps = {
    ...deps,
    consumer: { linkBase: options.linkBase ?? (() => 'http://127.0.0.1:3000'), ...(options.mailer ? { mailer: options.mailer } : {}), ...(options.onMagicLink ? { onMagicLink: options.onMagicLink } : {}) },
  };
  return {
    signUp: run(signUp(cdeps)),
    logIn: run(logIn(cdeps)),
    verify: run(verifyMagicLink(cdeps)),
    authenticate: (token: string | undefined) => authenticateSession(cdeps, token),
    logOut: (sessionId: string) => revokeSession(cdeps, sessionId),
    /** Whether a token signs someone in, as a value (the page's first question). */
    session: (token: string | undefined) => sessionState(cdeps, token),
    identities: { list: run(listConsumerIdentities(cdeps)), create: run(createConsumerIdentity(cdeps)) },
    upgrade: run(startConsumerUpgrade(cdeps)),
    /** The latest extraction of the consumer's own identity, redacted unless `reveal` is asked for (no scope needed: it is theirs). */
    extractions: { latest: run(latestConsumerExtraction(cdeps, waiters)) },
    /** The mail of the consumer's own identities, masked unless `reveal` is asked for. */
    messages: { list: run(listConsumerMessages(cdeps)), get: run(readConsumerMessage(cdeps)) },
    notifications: { list: run(listNotifications(cdeps)), markRead: run(markNotificationRead(cdeps)) },
    /** Reads new events (relay `consumer-notifications`) and notifies consumers of their codes and links. */
    notifyTick: (owner: string, options?: RelayOptions) => relayTick(cdeps, 'consumer-notifications', owner, (events) => notifyConsumers(cdeps, events), options),
    /** The live inbox's reads: events after a log position, and the log's head. */
    inbox: {
      after: (principal: Principal, position: number) => inboxAfter(cdeps, principal, position),
      head: () => logHead(cdeps),
      /** In-process wake-ups (a fast path; the stream polls the log anyway). */
      subscribe: (listener: (orgId: string) => void) => cdeps.hub.subscribe((event) => listener(event.org_id)),
    },
  };
};
