import { randomUUID } from 'node:crypto';
import type { DocumentStore, Plan, PlanName, PlanRead, Principal } from '@ephemail/core';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import * as E from 'fp-ts/lib/Either.js';

export const DOMAIN = 'inbox.test';

/** A service over `store` (a fresh memory store by default) with the real MIME parser. */
export const service = (
  store: DocumentStore = createMemoryDocumentStore(),
  clock = new FakeClock('2026-04-01T10:00:00.000Z'),
  maxMessagesPerIdentity?: number,
  // Generous: the test machine may be busy; the budget is wall-clock time.
  parseBudgetMs = 20_000,
) =>
  createEphemail({ store, inboxDomain: DOMAIN, clock, parser: createPostalMimeMailParser({ timeBudgetMs: parseBudgetMs }), maxMessagesPerIdentity, longPollIntervalMs: 10 });

export type Service = ReturnType<typeof service>;

export const principalFor = async (app: Service, plan: PlanName = 'growth'): Promise<Principal> => {
  const orgId = `org_${randomUUID().slice(0, 8)}`;
  const projectId = `proj_${randomUUID().slice(0, 8)}`;
  const key = await app.auth.createApiKey({ orgId, projectIds: [projectId], scopes: ['identities:read', 'identities:write', 'secrets:read'], plan });
  if (E.isLeft(key)) throw new Error(key.left._tag);
  const principal = await app.auth.authenticate({ authorization: `Bearer ${key.right.key}`, orgId, projectId });
  if (E.isLeft(principal)) throw new Error(principal.left._tag);
  return principal.right;
};

/** `app` initialised, a principal of a fresh organization, and one identity made with `label`. */
export const withIdentity = async (app: Service, label: string) => {
  await app.init();
  const principal = await principalFor(app);
  const identity = rightOf(await app.identities.create(principal, { label }));
  return { principal, identity };
};

export const rightOf = <A>(either: E.Either<{ _tag: string }, A>): A => {
  if (E.isLeft(either)) throw new Error(`expected Right, got ${either.left._tag}`);
  return either.right;
};

/** A small RFC 5322 message; `body` is the text part. */
export const mail = (to: string, subject: string, body: string, messageId = `<${randomUUID()}@sender.example>`): Buffer =>
  Buffer.from(
    [
      'From: Example App <no-reply@app.example.com>',
      `To: ${to}`,
      `Subject: ${subject}`,
      `Message-ID: ${messageId}`,
      'Date: Wed, 01 Apr 2026 10:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '',
    ].join('\r\n'),
  );

export const smtpEnvelope = (...rcptTo: string[]) => ({ transport: 'smtp' as const, mailFrom: 'bounce@app.example.com', rcptTo });

/**
 * A store that fails the first write of an identity's recording once armed (its read-modify-write,
 * or the one step that records it with its events), like a crash mid-pipeline.
 */
export const failingOnce = (inner: DocumentStore): DocumentStore & { arm(): void } => {
  let failed = true;
  const arm = () => {
    failed = false;
  };
  const failFirst = () => {
    if (failed) return;
    failed = true;
    throw new Error('disk full');
  };
  return new Proxy(inner as DocumentStore & { arm(): void }, {
    get(target, prop, receiver) {
      if (prop === 'arm') return arm;
      if (prop === 'update') {
        return async (collection: string, id: string, change: Parameters<DocumentStore['update']>[2]) => {
          if (collection === 'identities') failFirst();
          return target.update(collection, id, change);
        };
      }
      if (prop === 'transact' && target.transact !== undefined) {
        return async (plan: Parameters<NonNullable<DocumentStore['transact']>>[0]) => {
          failFirst();
          return target.transact!(plan);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};

/** `inner` with the members `own` names replaced; every other member is `inner`'s, bound to it. */
export const overriding = <S extends object>(inner: S, own: Readonly<Record<string, unknown>>): S =>
  new Proxy(inner, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && Object.hasOwn(own, prop)) return own[prop];
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });

/**
 * `inner` seen without its optional multi-document operations (`transact`, `insertAll`), as a
 * store that cannot write several documents atomically is: core then records every change of an
 * identity through its outbox. The documents are `inner`'s, so a test may see one store both ways.
 */
export const withoutTransact = (inner: DocumentStore): DocumentStore => overriding(inner, { transact: undefined, insertAll: undefined });

/** The memory store without `transact` and `insertAll` (see {@link withoutTransact}). */
export const outboxOnlyStore = (): DocumentStore => withoutTransact(createMemoryDocumentStore());

/**
 * A store whose `transact` answers are held back once `hold()` is called: each step still runs
 * (and commits) when it is called, but its caller hears of it only after `release()`, as if every
 * commit were slow. `steps(n)` resolves once `n` steps have run since `hold()`.
 */
export const holdingAnswers = (inner: DocumentStore) => {
  let gate: Promise<void> | undefined;
  let open = (): void => undefined;
  let ran = 0;
  const watchers: { readonly n: number; readonly resolve: () => void }[] = [];
  const counted = (): void => {
    ran += 1;
    for (const watcher of watchers.filter(({ n }) => n <= ran)) {
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
  };
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'transact' && target.transact !== undefined) {
        return async <R>(plan: (read: PlanRead) => Plan<R>) => {
          const held = gate;
          const answer = await target.transact!((read) => {
            const planned = plan(read);
            if (held !== undefined) counted();
            return planned;
          });
          if (held !== undefined) await held;
          return answer;
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store,
    hold: (): void => {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: (): void => open(),
    steps: (n: number): Promise<void> => new Promise((resolve) => (n <= ran ? resolve() : watchers.push({ n, resolve }))),
  };
};
