import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { createEphemailClient, EphemailIdentityGoneError, type EphemailClient } from '@ephemail/client';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';

/**
 * How long-polls end on the real host: at once on a squashed identity (409, never a held wait
 * and a 404), when the client hangs up (freeing the waiter and its timer), and when the host
 * closes (answering at once instead of holding the shutdown).
 */

const ORG = 'org_ends';
const PROJECT = 'proj_ends';
const SCOPES = ['identities:read', 'identities:write', 'secrets:read'];

const start = () =>
  startHost(
    // A grace period longer than any wait: a shutdown that waited for a long-poll would show as a test timeout.
    loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'ends.test', SHUTDOWN_GRACE_MS: '120000' }),
  );

let host: RunningHost;
test.before(async () => {
  host = await start();
});
test.after.always(() => host?.close());

const setUp = async (on: RunningHost) => {
  const created = await on.ephemail.auth.createApiKey({ orgId: ORG, projectIds: [PROJECT], scopes: SCOPES });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  const key = created.right.key;
  const client: EphemailClient = createEphemailClient({ baseUrl: on.url, apiKey: key, orgId: ORG, projectId: PROJECT });
  const identity = await client.createIdentity({ label: 'ends' });
  const get = async (path: string, signal?: AbortSignal) => {
    const res = await fetch(`${on.url}/v1/identities/${identity.id}${path}`, { headers: { authorization: `Bearer ${key}`, 'x-org-id': ORG, 'x-project-id': PROJECT }, signal });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };
  return { client, identity, get };
};

/** Resolves once the host's sleeping long-polls number `count` (they show in its state, not in time). */
const sleepingBecomes = async (on: RunningHost, count: number) => {
  for (let i = 0; i < 500 && on.ephemail.longPolls.sleeping() !== count; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  return on.ephemail.longPolls.sleeping();
};

test('long-poll ends: a wait on a squashed identity answers 409 identity_already_squashed at once, for extractions and events', async (t) => {
  t.timeout(20_000, 'a held wait of 30 s would run past this');
  const { client, identity, get } = await setUp(host);
  await client.squashIdentity(identity.id);
  for (const path of ['/extractions/latest?wait=30', '/extractions/latest?wait=30&type=otp', '/events/latest?wait=30']) {
    const read = await get(path);
    t.is(read.status, 409, path);
    t.is(read.json.error.code, 'identity_already_squashed', path);
    t.is(read.json.error.details.identity_id, identity.id, path);
  }
  t.is((await get('/events/latest')).json.type, 'identity.squashed', 'a read without wait still answers');
});

test('long-poll ends: a wait ends with 409 when the identity is squashed while it waits; the client throws EphemailIdentityGoneError', async (t) => {
  t.timeout(20_000);
  const { client, identity, get } = await setUp(host);
  const read = get('/extractions/latest?wait=30&type=magic_link');
  const waiting = t.throwsAsync(client.waitForCode(identity.id, { timeoutMs: 30_000 }), { instanceOf: EphemailIdentityGoneError });
  t.is(await sleepingBecomes(host, 2), 2);
  await client.squashIdentity(identity.id);
  t.like((await read).json.error, { code: 'identity_already_squashed' });
  t.like(await waiting, { code: 'identity_already_squashed', state: 'squashed', identityId: identity.id, status: 409 });
  await t.throwsAsync(client.waitForLink(identity.id, { timeoutMs: 30_000 }), { instanceOf: EphemailIdentityGoneError });
});

test('long-poll ends: a long-poll whose client hangs up leaves no waiter or timer behind', async (t) => {
  t.timeout(20_000);
  const { get } = await setUp(host);
  const caller = new AbortController();
  const read = get('/extractions/latest?wait=60', caller.signal).catch((error: unknown) => error);
  t.is(await sleepingBecomes(host, 1), 1);
  caller.abort();
  t.is(((await read) as Error).name, 'AbortError');
  t.is(await sleepingBecomes(host, 0), 0, 'the abandoned wait released its timer');
  t.is(host.ephemail.longPolls.open(), 0);
});

test('long-poll ends: closing the host answers a pending long-poll at once and does not wait out its 60 s', async (t) => {
  t.timeout(30_000, 'a close that waited for the long-poll would take 60 s');
  const own = await start();
  const { get } = await setUp(own);
  const read = get('/extractions/latest?wait=60');
  t.is(await sleepingBecomes(own, 1), 1);
  await own.close();
  const answer = await read;
  t.is(answer.status, 404, 'answered as a wait that found nothing');
  t.is(answer.json.error.code, 'extraction_not_found');
  t.is(own.ephemail.longPolls.sleeping(), 0);
});
