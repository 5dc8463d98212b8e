import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import { hashSecret } from '../auth/secrets.js';
import { ensureOrganization, ensureProject } from '../auth/tenancy.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { consumerNotFound, emailAlreadyRegistered, invalidMagicLink, rateLimited, sessionExpired, unauthorized } from '../domain/errors.js';
import { iso, isoPlus } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { addToCounter } from '../store/counter.js';
import type { ConsumerDeps } from './consumer-deps.js';
import type { ConsumerRecord, MagicLinkRecord, SessionRecord } from './consumer-record.js';
import { MAGIC_LINK_TTL_MS, SESSION_TTL_MS } from './consumer-record.js';

/** Links asked for one address per hour, and per client address per hour. */
export const LINKS_PER_ADDRESS_HOUR = 5;
export const LINKS_PER_IP_HOUR = 30;

const digest = (value: string): string => createHash('sha256').update(value).digest('base64url').slice(0, 32);

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Sign-up and sign-in mail is rate-limited per address and per client address, in the store
 * (bounded counters per hour), so no one can flood an inbox or probe addresses quickly.
 */
const withinLinkRate = async (deps: CoreDeps, email: string, ip: string): Promise<E.Either<DomainError, true>> => {
  const now = deps.clock.now();
  const hour = Math.floor(now.getTime() / 3_600_000);
  const retry = Math.max(1, Math.ceil(((hour + 1) * 3_600_000 - now.getTime()) / 1000));
  const windowEnd = iso(new Date((hour + 1) * 3_600_000));
  if ((await addToCounter(deps, `linkrate:ip:${digest(ip)}:${hour}`, 1, { max: LINKS_PER_IP_HOUR }, windowEnd)) === 'over_max') return E.left(rateLimited(retry));
  if ((await addToCounter(deps, `linkrate:addr:${digest(email)}:${hour}`, 1, { max: LINKS_PER_ADDRESS_HOUR }, windowEnd)) === 'over_max') return E.left(rateLimited(retry));
  return E.right(true);
};

/** Makes a single-use link for the consumer and sends it (or, without a mailer, hands it to `onMagicLink`). */
const sendMagicLink = async (deps: ConsumerDeps, consumer: ConsumerRecord): Promise<void> => {
  const token = `cml_${deps.ids.secret(40)}`;
  const now = deps.clock.now();
  const record: MagicLinkRecord = { id: hashSecret(token), consumer_id: consumer.id, created_at: iso(now), expires_at: isoPlus(now, MAGIC_LINK_TTL_MS), used_at: null };
  await deps.store.insert(C.magicLinks, record);
  const link = `${deps.consumer.linkBase()}/consumer/verify?token=${token}`;
  deps.consumer.onMagicLink?.(consumer.email, link);
  if (deps.consumer.mailer === undefined) return;
  await deps.consumer.mailer.send({
    to: consumer.email,
    subject: 'Your ephemail sign-in link',
    text: `Sign in to ephemail:\n\n${link}\n\nThe link works once, for 15 minutes. If you did not ask for it, ignore this mail.`,
    html: `<p>Sign in to ephemail:</p><p><a href="${link}">Sign in</a></p><p>The link works once, for 15 minutes. If you did not ask for it, ignore this mail.</p>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
  });
};

const MESSAGE = 'Check your mail: we sent a sign-in link.';

type LinkAnswer = TE.TaskEither<DomainError, { message: string; email: string }>;

/**
 * A request for a link: the address normalised, the rate checked, then `account` finds (or
 * makes) the account the link is for, and the link is mailed.
 */
const linkRequest =
  (deps: ConsumerDeps, account: (email: string) => Promise<E.Either<DomainError, ConsumerRecord>>) =>
  (input: { readonly email: string; readonly clientIp: string }): LinkAnswer =>
  async () => {
    const email = normalizeEmail(input.email);
    const rate = await withinLinkRate(deps, email, input.clientIp);
    if (E.isLeft(rate)) return rate;
    const found = await account(email);
    if (E.isLeft(found)) return found;
    await sendMagicLink(deps, found.right);
    return E.right({ message: MESSAGE, email });
  };

/** Creates the account (a personal organization and project) and mails its first link. */
export const signUp = (deps: ConsumerDeps) =>
  linkRequest(deps, async (email) => {
    const id = deps.ids.next('cons');
    if ((await deps.store.insert(C.consumerEmails, { id: email, consumer_id: id })) !== 'inserted') return E.left(emailAlreadyRegistered());
    const consumer: ConsumerRecord = { id, email, org_id: `org_${id}`, project_id: `proj_${id}`, plan: 'trial', created_at: iso(deps.clock.now()), verified_at: null };
    await ensureOrganization(deps, { id: consumer.org_id, plan: 'starter', name: email });
    await ensureProject(deps, { id: consumer.project_id, orgId: consumer.org_id, name: 'personal' });
    await deps.store.insert(C.consumers, consumer);
    return E.right(consumer);
  });

export const consumerByEmail = async (deps: CoreDeps, email: string): Promise<ConsumerRecord | undefined> => {
  const claim = await deps.store.get(C.consumerEmails, normalizeEmail(email));
  return typeof claim?.consumer_id === 'string' ? ((await deps.store.get(C.consumers, claim.consumer_id)) as ConsumerRecord | undefined) : undefined;
};

/** Mails a sign-in link to an existing account. */
export const logIn = (deps: ConsumerDeps) =>
  linkRequest(deps, async (email) => {
    const consumer = await consumerByEmail(deps, email);
    return consumer === undefined ? E.left(consumerNotFound()) : E.right(consumer);
  });

/**
 * Uses a magic link, once (compare-and-set), for a 30-day session: unknown, used and expired
 * links all answer `invalid_magic_link`. Only the session token's hash is stored.
 */
export const verifyMagicLink =
  (deps: ConsumerDeps) =>
  (token: string): TE.TaskEither<DomainError, Record<string, unknown>> =>
  async () => {
    const link = (await deps.store.get(C.magicLinks, hashSecret(token))) as (MagicLinkRecord & StoredDocument) | undefined;
    const now = deps.clock.now();
    if (link === undefined || link.used_at !== null || link.expires_at <= iso(now)) return E.left(invalidMagicLink());
    const { version, ...rest } = link;
    if (!(await deps.store.replace(C.magicLinks, { ...rest, used_at: iso(now) }, version))) return E.left(invalidMagicLink());
    const consumer = (await deps.store.get(C.consumers, link.consumer_id)) as (ConsumerRecord & StoredDocument) | undefined;
    if (consumer === undefined) return E.left(invalidMagicLink());
    if (consumer.verified_at === null) {
      const { version: v, ...fields } = consumer;
      await deps.store.replace(C.consumers, { ...fields, verified_at: iso(now) }, v);
    }
    const sessionToken = `cst_${deps.ids.secret(40)}`;
    const session: SessionRecord = { id: hashSecret(sessionToken), consumer_id: consumer.id, created_at: iso(now), expires_at: isoPlus(now, SESSION_TTL_MS), revoked_at: null };
    await deps.store.insert(C.consumerSessions, session);
    return E.right({
      consumer_id: consumer.id,
      org_id: consumer.org_id,
      project_id: consumer.project_id,
      session_token: sessionToken,
      expires_at: session.expires_at,
      accountId: consumer.id,
      verified: true,
    });
  };

/** The consumer a session token belongs to, as a principal of its personal project. */
export const authenticateSession = async (deps: CoreDeps, token: string | undefined): Promise<E.Either<DomainError, { principal: Principal; consumer: ConsumerRecord; sessionId: string }>> => {
  if (token === undefined || !token.startsWith('cst_')) return E.left(unauthorized('A consumer session is required.'));
  const session = (await deps.store.get(C.consumerSessions, hashSecret(token))) as SessionRecord | undefined;
  if (session === undefined) return E.left(unauthorized('A consumer session is required.'));
  if (session.revoked_at !== null || session.expires_at <= iso(deps.clock.now())) return E.left(sessionExpired());
  const consumer = (await deps.store.get(C.consumers, session.consumer_id)) as ConsumerRecord | undefined;
  if (consumer === undefined) return E.left(sessionExpired());
  const principal: Principal = {
    orgId: consumer.org_id,
    projectId: consumer.project_id,
    scopes: ['identities:read', 'identities:write'],
    credential: { kind: 'consumer_session', id: session.id.slice(0, 24), keyId: consumer.id },
  };
  return E.right({ principal, consumer, sessionId: session.id });
};

/** Ends a session at once (logout). */
export const revokeSession = async (deps: CoreDeps, sessionId: string): Promise<void> => {
  const session = (await deps.store.get(C.consumerSessions, sessionId)) as (SessionRecord & StoredDocument) | undefined;
  if (session === undefined || session.revoked_at !== null) return;
  const { version, ...rest } = session;
  await deps.store.replace(C.consumerSessions, { ...rest, revoked_at: iso(deps.clock.now()) }, version);
};
