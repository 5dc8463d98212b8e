import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import { decideReveal, type RevealOption } from '../auth/reveal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { eventNotFound, notFound } from '../domain/errors.js';
import type { EventRecord, PublicEvent } from '../domain/event.js';
import { toPublicEvent } from '../domain/event.js';
import type { MailAddress } from '../extraction/types.js';
import type { MessageRecord } from '../mail/message-record.js';
import { loadRaw, withBodies } from '../mail/message-record.js';
import { maskerOfMessage, SHOW_SECRETS, type MessageMask } from '../mail/message-secrets.js';
import { toAuthenticationView } from '../mail/authentication-view.js';
import type { Waiters } from '../mail/waiters.js';
import { C } from '../store/collections.js';
import { findPage } from '../store/page.js';
import type { Page } from './identities.js';
import { loadIdentity } from './identity-access.js';
import { waitWhileLive, type WaitBudget } from './wait-while-live.js';

/** Long-poll options: wait up to `waitSeconds` for a result other than the one named `after`. */
export interface WaitOptions extends WaitBudget {
  readonly after?: string;
}

const latestEventOf = async (deps: CoreDeps, identityId: string): Promise<EventRecord | undefined> => {
  const [latest] = await deps.store.find(C.events, { where: { identity_id: identityId }, sort: { field: 'seq', direction: 'desc' }, limit: 1 });
  return latest as unknown as EventRecord | undefined;
};

/**
 * The identity's latest event, waiting for one (other than `after`) when asked to; a wait on a
 * squashed or expired identity answers that state at once (ADR 0052).
 */
export const latestEventWaiting =
  (deps: CoreDeps, waiters: Waiters) =>
  (principal: Principal, identityId: string, wait: WaitOptions): TE.TaskEither<DomainError, PublicEvent> =>
    pipe(
      () => loadIdentity(deps, principal, identityId),
      TE.flatMap((identity) => async () => {
        const find = async () => {
          const latest = await latestEventOf(deps, identity.id);
          return latest === undefined || latest.id === wait.after ? undefined : toPublicEvent(latest);
        };
        const outcome = await waitWhileLive(deps, waiters, identity, find, wait);
        if (E.isLeft(outcome) || outcome.right !== undefined) return outcome as E.Either<DomainError, PublicEvent>;
        const latest = await latestEventOf(deps, identity.id);
        const held = latest !== undefined && latest.id === wait.after;
        return E.left(eventNotFound(identity.id, held ? { after: wait.after!, waitSeconds: wait.waitSeconds } : undefined));
      }),
    );

type Mask = MessageMask;
const SHOW: Mask = SHOW_SECRETS;

const maskAddress = (a: MailAddress, mask: Mask): MailAddress => ({ address: mask.text(a.address), name: mask.text(a.name) });

/**
 * A message summary for lists; `mask` hides the message's secrets in what it shows (the subject,
 * and the sender's and recipients' names and addresses, which the mail's author chose too).
 */
export const toMessageSummary = (m: MessageRecord, mask: Mask = SHOW) => ({
  id: m.id,
  identity_id: m.identity_id,
  from: mask === SHOW ? m.from : maskAddress(m.from, mask),
  to: mask === SHOW ? m.to : m.to.map((a) => maskAddress(a, mask)),
  subject: mask.text(m.subject),
  received_at: m.received_at,
  size: m.size,
  attachments: m.attachments.length,
  extraction_id: m.extraction_id,
});

const maskHeaders = (headers: MessageRecord['headers'], mask: Mask): Record<string, string[]> =>
  Object.fromEntries(Object.entries(headers).map(([name, values]) => [name, values.map(mask.text)]));

const maskAttachments = (attachments: MessageRecord['attachments'], mask: Mask): MessageRecord['attachments'] =>
  attachments.map((a) => (a.filename === null ? a : { ...a, filename: mask.text(a.filename) }));

/**
 * The full message view: parsed content, headers, attachment metadata, authentication results;
 * `mask` hides the message's secrets in its subject, names, headers, text, HTML and file names.
 * The HTML is masked on what its reader sees (text nodes joined across tags, references decoded,
 * attribute values); where a secret cannot be located in the markup with certainty, `html` is
 * empty and `html_withheld` true: only a reveal serves it then.
 */
export const toMessageView = (m: MessageRecord, mask: Mask = SHOW) => {
  const html = mask.html(m.html);
  return {
    ...toMessageSummary(m, mask),
    // `message_id` is the `msg_` id everywhere (events, extractions); the header has its own name.
    message_id: m.id,
    rfc_message_id: m.message_id,
    date: m.date,
    envelope: mask === SHOW || m.envelope.mail_from === null ? m.envelope : { ...m.envelope, mail_from: mask.text(m.envelope.mail_from) },
    transport: m.transport,
    headers: mask === SHOW ? m.headers : maskHeaders(m.headers, mask),
    text: mask.text(m.text),
    html: html.html,
    html_withheld: html.withheld,
    truncated: m.truncated,
    attachments: mask === SHOW ? m.attachments : maskAttachments(m.attachments, mask),
    authentication: toAuthenticationView(m.authentication),
    sha256: m.sha256,
  };
};

/** How a read shows secrets: masked (the default), or raw for a caller holding `secrets:read` who asks. */
export type { RevealOption } from '../auth/reveal.js';

const maskFor = async (deps: CoreDeps, message: MessageRecord, options: RevealOption): Promise<Mask> =>
  options.reveal === true ? SHOW : maskerOfMessage(deps, message);

/** Raw values only for a credential holding `secrets:read` (decided, as for every read, by `decideReveal`). */
const mayReveal = (principal: Principal, options: RevealOption): TE.TaskEither<DomainError, Principal> =>
  pipe(TE.fromEither(decideReveal(principal, options)), TE.map(() => principal));

/** The identity's messages, newest first. */
export const listMessages =
  (deps: CoreDeps) =>
  (
    principal: Principal,
    identityId: string,
    page: { limit: number; offset: number } & RevealOption,
  ): TE.TaskEither<DomainError, Page<ReturnType<typeof toMessageSummary>>> =>
    pipe(
      mayReveal(principal, page),
      TE.flatMap(() => () => loadIdentity(deps, principal, identityId)),
      TE.flatMap((identity) => async () => {
        const { reveal, ...window } = page;
        return E.right(
          await findPage(deps.store, C.messages, { where: { identity_id: identity.id }, newestBy: 'received_at' }, window, async (d) => {
            const message = d as unknown as MessageRecord;
            return toMessageSummary(message, await maskFor(deps, message, { reveal }));
          }),
        );
      }),
    );

const loadMessage = (deps: CoreDeps, principal: Principal, identityId: string, messageId: string): TE.TaskEither<DomainError, MessageRecord> =>
  pipe(
    () => loadIdentity(deps, principal, identityId),
    TE.flatMap((identity) => async () => {
      const message = (await deps.store.get(C.messages, messageId)) as MessageRecord | undefined;
      return message === undefined || message.identity_id !== identity.id ? E.left(notFound('message', messageId)) : E.right(message);
    }),
  );

/** One message of the identity. */
export const getMessage =
  (deps: CoreDeps) =>
  (principal: Principal, identityId: string, messageId: string, options: RevealOption = {}): TE.TaskEither<DomainError, ReturnType<typeof toMessageView>> =>
    pipe(
      mayReveal(principal, options),
      TE.flatMap(() => loadMessage(deps, principal, identityId, messageId)),
      TE.flatMap((message) => async () => {
        const full = await withBodies(deps, message);
        return E.right(toMessageView(full, await maskFor(deps, full, options)));
      }),
    );

/** The message exactly as received; needs `secrets:read`, as any reveal does. */
export const getRawMessage =
  (deps: CoreDeps) =>
  (principal: Principal, identityId: string, messageId: string): TE.TaskEither<DomainError, Buffer> =>
    pipe(
      // The raw bytes show every secret as sent: a read of them is always a reveal.
      mayReveal(principal, { reveal: true }),
      TE.flatMap(() => loadMessage(deps, principal, identityId, messageId)),
      TE.flatMap((message) => async () => {
        const raw = await loadRaw(deps, message);
        if (raw === undefined) throw new Error(`raw bytes of ${message.id} are incomplete`);
        return E.right(raw);
      }),
    );
