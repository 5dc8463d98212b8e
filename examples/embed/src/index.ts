import { createEphemail, type Ephemail } from '@ephemail/core';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';
import * as E from 'fp-ts/lib/Either.js';

/**
 * Embedding ephemail in your own service: the core with the SQLite store, no HTTP at all.
 * Creates a tenant and a key, provisions an identity with a child, and reads its events.
 */
export const runExample = async (databasePath: string, log: (line: string) => void = console.log): Promise<string[]> => {
  const service: Ephemail = createEphemail({
    store: createSqliteDocumentStore(openSqliteDatabase(databasePath)),
    inboxDomain: 'inbox.example.com',
  });
  await service.init();
  try {
    const key = await service.auth.createApiKey({ orgId: 'org_demo', projectIds: ['proj_demo'], scopes: ['identities:write'], plan: 'growth' });
    if (E.isLeft(key)) throw new Error(`key: ${key.left._tag}`);
    const principal = await service.auth.authenticate({ authorization: `Bearer ${key.right.key}`, orgId: 'org_demo', projectId: 'proj_demo' });
    if (E.isLeft(principal)) throw new Error(`auth: ${principal.left._tag}`);

    const inbox = await service.identities.create(principal.right, { label: 'checkout test', ttl_hours: 2 });
    if (E.isLeft(inbox)) throw new Error(`create: ${inbox.left._tag}`);
    log(`inbox ${inbox.right.email} expires ${inbox.right.expires_at}`);

    const child = await service.identities.createChild(principal.right, inbox.right.id, { label: 'second user' });
    if (E.isRight(child)) log(`child ${child.right.email}`);

    const events = await service.events.list(principal.right, inbox.right.id, { limit: 10, offset: 0 });
    const types = E.isRight(events) ? events.right.items.map((event) => event.type) : [];
    log(`events: ${types.join(', ')}`);
    return types;
  } finally {
    await service.close();
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  await runExample(process.argv[2] ?? './data/example.db');
}
