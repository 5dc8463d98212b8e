import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createEphemailClient, EphemailError, EphemailTimeoutError, type EphemailClient } from '@ephemail/client';
import { RESPONSE_SCHEMAS } from '@ephemail/http-express';
import { tenantHost } from './tenant-host.js';

/** `@ephemail/client` against the real host: HTTP on loopback, mail through its MX over SMTP. */

const ORG = 'org_client';
const PROJECT = 'proj_client';
const CODE = '318264';
const LINK = 'https://app.example.com/auth/verify?token=Qm81kLx02PzT7vW4abcd';

const { host, keyWith, clientOf, send } = tenantHost(test, { org: ORG, project: PROJECT, inboxDomain: 'client.test' });

const clientWith = async (scopes: string[]): Promise<EphemailClient> => clientOf(await keyWith(scopes));
const READ_WRITE = ['identities:read', 'identities:write'];
const REVEALING = [...READ_WRITE, 'secrets:read'];

const sendCode = (to: string) => send(to, { subject: 'Your sign-in code', text: `Your verification code is ${CODE}. It expires in 10 minutes.` });
const sendLink = (to: string) => send(to, { subject: 'Verify your email', html: `<p>Confirm your address: <a href="${LINK}">Verify email</a></p>` });

test('client e2e: createIdentity, then a code mailed over SMTP is what waitForCode answers', async (t) => {
  const client = await clientWith(REVEALING);
  const identity = await client.createIdentity({ label: 'signup', ttl_hours: 2, metadata: { run: 1 } });
  t.like(identity, { label: 'signup', status: 'provisioned', metadata: { run: 1 }, parent_id: null });
  t.regex(identity.email, /@client\.test$/);
  const waiting = client.waitForCode(identity.id, { timeoutMs: 20_000 });
  await sendCode(identity.email);
  const found = await waiting;
  t.is(found.code, CODE);
  t.is(found.redacted, '3•••4');
  t.like(found.extraction, { type: 'otp', identity_id: identity.id, value: CODE });
  t.is((await client.getIdentity(identity.id)).status, 'active');
});

test('client e2e: waitForLink steps past a code that arrives first and answers the link', async (t) => {
  const client = await clientWith(REVEALING);
  const identity = await client.createIdentity();
  t.is(identity.label, 'ephemail client');
  const waiting = client.waitForLink(identity.id, { timeoutMs: 20_000 });
  await sendCode(identity.email);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await sendLink(identity.email);
  const found = await waiting;
  t.is(found.link, LINK);
  t.is(found.extraction.link_kind, 'verify_email');
  t.regex(found.redacted, /^https:\/\/app\.example\.com\/•••/);
});

test('client e2e: without secrets:read, reveal is refused as forbidden, and reveal false answers the masked code only', async (t) => {
  const client = await clientWith(READ_WRITE);
  const identity = await client.createIdentity();
  await sendCode(identity.email);
  const refused = await t.throwsAsync(client.waitForCode(identity.id, { timeoutMs: 5_000 }), { instanceOf: EphemailError });
  t.like(refused, { status: 403, code: 'forbidden' });
  t.deepEqual((refused.details as { missing_scopes: string[] }).missing_scopes, ['secrets:read']);
  const masked = await client.waitForCode(identity.id, { reveal: false, timeoutMs: 5_000 });
  t.is(masked.code, undefined);
  t.is(masked.redacted, '3•••4');
  t.false(JSON.stringify(masked).includes(CODE));
});

test('client e2e: nothing arriving ends in EphemailTimeoutError; an abort ends the wait at once', async (t) => {
  const client = await clientWith(REVEALING);
  const identity = await client.createIdentity();
  const started = Date.now();
  const timedOut = await t.throwsAsync(client.waitForCode(identity.id, { timeoutMs: 1_500 }), { instanceOf: EphemailTimeoutError });
  t.is(timedOut.identityId, identity.id);
  // Not before the deadline; the upper bound only catches a hang.
  t.true(Date.now() - started >= 1_500 && Date.now() - started < 20_000);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const abortStarted = Date.now();
  const aborted = await t.throwsAsync(client.waitForLink(identity.id, { timeoutMs: 8_000, signal: controller.signal }), { any: true });
  t.is((aborted as Error).name, 'AbortError');
  t.true(Date.now() - abortStarted < 6_000, 'the abort did not wait for the deadline');
});

test('client e2e: an error envelope arrives as EphemailError with its code and requestId', async (t) => {
  const client = await clientWith(READ_WRITE);
  const missing = await t.throwsAsync(client.getIdentity('ident_00000000AAAAAAAAAAAAAAAAAAAAAAAA'), { instanceOf: EphemailError });
  t.like(missing, { status: 404, code: 'identity_not_found' });
  t.regex(missing.requestId ?? '', /^req_[A-Za-z0-9_-]{24}$/);
  const invalid = await t.throwsAsync(client.createIdentity({ ttl_hours: 721 }), { instanceOf: EphemailError });
  t.is(invalid.code, 'invalid_request');
  t.true(JSON.stringify(invalid.details).includes('body.ttl_hours'));
  const stranger = createEphemailClient({ baseUrl: host().url, apiKey: 'aid_ZZZZZZZZZZZZZZZZ_0123456789012345678901234567890123456789', orgId: ORG, projectId: PROJECT });
  t.is((await t.throwsAsync(stranger.listIdentities(), { instanceOf: EphemailError })).code, 'unauthorized');
});

test('client e2e: an Idempotency-Key given twice creates one identity', async (t) => {
  const client = await clientWith(READ_WRITE);
  const key = randomUUID();
  const first = await client.createIdentity({ label: 'once' }, { idempotencyKey: key });
  const again = await client.createIdentity({ label: 'once' }, { idempotencyKey: key });
  t.is(again.id, first.id);
});

test('client e2e: lifecycle and reads; every answer matches its schema in the OpenAPI document exactly', async (t) => {
  const client = await clientWith(REVEALING);
  const identity = await client.createIdentity({ label: 'reads' });
  const strict = (name: keyof typeof RESPONSE_SCHEMAS, value: unknown) => t.notThrows(() => RESPONSE_SCHEMAS[name].parse(value), name);
  strict('Identity', identity);
  await sendCode(identity.email);
  const found = await client.waitForCode(identity.id, { timeoutMs: 20_000 });
  strict('Extraction', found.extraction);
  const redacted = await client.latestExtraction(identity.id);
  strict('Extraction', redacted);
  t.is(redacted?.value, undefined);
  t.is((await client.latestExtraction(identity.id, { reveal: true }))?.value, CODE);
  const messages = await client.listMessages(identity.id, { limit: 10 });
  strict('MessagePage', { items: messages.data, total: messages.total, limit: messages.limit, offset: messages.offset });
  t.like(messages, { total: 1, limit: 10, offset: 0 });
  t.is(messages.data[0]!.subject, 'Your sign-in code');
  const message = await client.getMessage(identity.id, messages.data[0]!.id);
  strict('Message', message);
  t.false(message.text.includes(CODE), 'masked without reveal');
  t.true((await client.getMessage(identity.id, message.id, { reveal: true })).text.includes(CODE));
  const extended = await client.extendIdentity(identity.id, { additional_hours: 3 });
  t.is(extended.status, 'extended');
  strict('Identity', extended);
  const listed = await client.listIdentities({ status: 'extended', limit: 200 });
  t.true(listed.data.some((i) => i.id === identity.id));
  strict('IdentityPage', { items: listed.data, total: listed.total, limit: listed.limit, offset: listed.offset });
  t.is((await client.squashIdentity(identity.id)).status, 'squashed');
  t.is((await t.throwsAsync(client.squashIdentity(identity.id), { instanceOf: EphemailError })).code, 'identity_already_squashed');
});

test('client e2e: the raw openapi-fetch client carries the credential and tenant headers', async (t) => {
  const client = await clientWith(READ_WRITE);
  await client.createIdentity({ label: 'raw' });
  const { data, response } = await client.api.GET('/v1/identities', { params: { query: { limit: '1' } } });
  t.is(response.status, 200);
  t.is(data?.limit, 1);
  t.is(data?.items.length, 1);
});
