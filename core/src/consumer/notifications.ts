import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DomainError } from '../domain/errors.js';
import { notFound } from '../domain/errors.js';
import type { EventRecord } from '../domain/event.js';
import { iso } from '../domain/time.js';
import type { ExtractionRecord } from '../mail/extraction-record.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { findPage } from '../store/page.js';
import { applyTransition } from '../store/outbox.js';
import type { Page } from '../use-cases/identities.js';
import type { ConsumerDeps } from './consumer-deps.js';
import type { ConsumerRecord } from './consumer-record.js';
import { notificationBody, unmailedBody } from './notification-body.js';

export interface NotificationRecord {
  readonly id: string;
  readonly org_id: string;
  readonly consumer_id: string;
  readonly identity_id: string;
  readonly source_event_id: string;
  /** The event that caused the notification. */
  readonly type: 'extraction.completed';
  /** The kind of secret that arrived. */
  readonly secret_type: 'otp' | 'magic_link';
  readonly title: string;
  readonly body: string;
  readonly read: boolean;
  readonly created_at: string;
}

/** A notification stored before `secret_type` existed named the kind in its `type` (`code_received`, `link_received`). */
const secretTypeOf = (n: NotificationRecord): NotificationRecord['secret_type'] =>
  n.secret_type ?? ((n.type as string) === 'code_received' ? 'otp' : 'magic_link');

export const toNotification = (n: NotificationRecord) => ({
  id: n.id,
  type: 'extraction.completed' as const,
  secret_type: secretTypeOf(n),
  title: n.title,
  body: n.body,
  read: n.read,
  created_at: n.created_at,
  identity_id: n.identity_id,
});
export type Notification = ReturnType<typeof toNotification>;

/** One notification per extraction event, whatever the relay hands again: its id derives from the event's. */
const notificationId = (eventId: string): string => `notif_${createHash('sha256').update(eventId).digest('base64url').slice(0, 24)}`;

const consumerOfOrg = async (deps: ConsumerDeps, orgId: string): Promise<ConsumerRecord | undefined> =>
  orgId.startsWith('org_cons_') ? ((await deps.store.get(C.consumers, orgId.slice('org_'.length))) as ConsumerRecord | undefined) : undefined;

/** Forwards the secret to the consumer's own address; answers why not when it could not. */
const forward = async (deps: ConsumerDeps, consumer: ConsumerRecord, extraction: ExtractionRecord, identityEmail: string): Promise<string | undefined> => {
  if (deps.consumer.mailer === undefined) return 'no outbound mail is configured (SMTP_OUTBOUND_URL)';
  const what = extraction.type === 'otp' ? 'code' : 'link';
  try {
    await deps.consumer.mailer.send({
      to: consumer.email,
      subject: `Your ${what} for ${identityEmail}`,
      text: `Mail to your ephemail address ${identityEmail} carried this ${what}:\n\n${extraction.value}\n`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
};

/**
 * The notification was written saying where its secret went before the mail was sent; when that
 * failed, it says so instead (over a concurrent change, such as the consumer reading it).
 */
const sayUnmailed = async (deps: ConsumerDeps, id: string, body: string): Promise<void> => {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const found = (await deps.store.get(C.notifications, id)) as (NotificationRecord & StoredDocument) | undefined;
    if (found === undefined) return;
    const { version, ...rest } = found;
    if (await deps.store.replace(C.notifications, { ...rest, body }, version)) return;
  }
};

/**
 * The relay handler: for each extraction of a consumer's identity, a notification (once), the
 * secret forwarded to the consumer's address, and `consumer.notification.sent` or
 * `consumer.notification.failed` recorded on the identity.
 */
export const notifyConsumers = async (deps: ConsumerDeps, events: readonly EventRecord[]): Promise<void> => {
  for (const event of events) {
    if (event.type !== 'extraction.completed') continue;
    const consumer = await consumerOfOrg(deps, event.org_id);
    const extraction = (await deps.store.get(C.extractions, String(event.data.extraction_id))) as ExtractionRecord | undefined;
    const identity = await deps.store.get(C.identities, event.identity_id);
    if (consumer === undefined || extraction === undefined || identity === undefined) continue;
    const redacted = (event.data.extraction as { redacted_value?: string } | undefined)?.redacted_value ?? '';
    const record: NotificationRecord = {
      id: notificationId(event.id),
      org_id: consumer.org_id,
      consumer_id: consumer.id,
      identity_id: event.identity_id,
      source_event_id: event.id,
      type: 'extraction.completed',
      secret_type: extraction.type,
      title: extraction.type === 'otp' ? `A code arrived for ${String(identity.email)}` : `A link arrived for ${String(identity.email)}`,
      body: notificationBody(redacted, deps.consumer.mailer === undefined ? undefined : consumer.email),
      read: false,
      created_at: iso(deps.clock.now()),
    };
    if ((await deps.store.insert(C.notifications, record)) !== 'inserted') continue;
    const failure = await forward(deps, consumer, extraction, String(identity.email));
    if (failure !== undefined && deps.consumer.mailer !== undefined) await sayUnmailed(deps, record.id, unmailedBody(redacted, consumer.email));
    await applyTransition(deps, event.identity_id, (current) =>
      E.right({
        record: current,
        event: failure === undefined
          ? { type: 'consumer.notification.sent', data: { notification_id: record.id, channel: 'email' } }
          : { type: 'consumer.notification.failed', data: { notification_id: record.id, channel: 'email', reason: failure } },
      }),
    );
  }
};

export const listNotifications =
  (deps: ConsumerDeps) =>
  (principal: Principal, page: { readonly limit: number; readonly offset: number }): TE.TaskEither<DomainError, Page<Notification>> =>
  async () => {
    return E.right(await findPage(deps.store, C.notifications, { where: { org_id: principal.orgId }, newestBy: 'created_at' }, page, (d) => toNotification(d as unknown as NotificationRecord)));
  };

/** Marks one of the consumer's notifications read (again: no change). */
export const markNotificationRead =
  (deps: ConsumerDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, Notification> =>
  async () => {
    const found = (await deps.store.get(C.notifications, id)) as (NotificationRecord & StoredDocument) | undefined;
    if (found === undefined || found.org_id !== principal.orgId) return E.left(notFound('notification', id));
    const { version, ...rest } = found;
    if (!found.read) await deps.store.replace(C.notifications, { ...rest, read: true }, version);
    return E.right(toNotification({ ...rest, read: true }));
  };
