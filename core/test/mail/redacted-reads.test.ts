import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import type { Ephemail, Principal, WebhookTransport } from '../../src/index.js';
import { right, tagOf } from '../support.js';
import { CODE, LINK, scriptedService } from './scripted-mail.js';

// Every read of a secret is redacted unless it asks to reveal and its principal holds
// `secrets:read`, decided in core (ADR 0063): an embedder gets no raw value by accident.

/** Another principal of the same tenant, holding only `scopes`. */
const sameTenant = async (app: Ephemail, of: Principal, scopes: string[]): Promise<Principal> => {
  const key = right(await app.auth.createApiKey({ orgId: of.orgId, projectIds: [of.projectId], scopes }));
  return right(await app.auth.authenticate({ authorization: `Bearer ${key.key}`, orgId: of.orgId, projectId: of.projectId }));
};

const forbiddenScopes = (either: E.Either<{ _tag: string }, unknown>) =>
  E.isLeft(either) && either.left._tag === 'Forbidden' ? (either.left as { missingScopes?: readonly string[] }).missingScopes : undefined;

const PUBLIC_KEYS = ['candidates', 'confidence', 'extracted_at', 'has_secret', 'id', 'identity_id', 'link_kind', 'message_id', 'redacted_value', 'runner_up', 'source_event_id', 'type'];

/** A reader (identities:read only), a revealer (and secrets:read), and an identity whose mail brought a code and a link. */
const withMail = async () => {
  const service = await scriptedService();
  const identity = await service.newIdentity();
  await service.deliver(identity.email, CODE, LINK);
  const reader = await sameTenant(service.app, service.principal, ['identities:read']);
  return { ...service, identity, reader, revealer: service.principal };
};

test('redacted reads: extractions.latest without a reveal answers the public shape: no raw value, no candidate value, no org_id, project_id or version', async (t) => {
  const { app, identity, reader, revealer } = await withMail();
  for (const principal of [reader, revealer]) {
    const shown = right(await app.extractions.latest(principal, identity.id, { waitSeconds: 0 }));
    t.deepEqual(Object.keys(shown).sort(), PUBLIC_KEYS, 'only the public fields, for a reader and for a revealer that did not ask');
    t.like(shown, { type: 'otp', has_secret: true, redacted_value: '5•••9' });
    for (const candidate of shown.candidates) t.false('value' in candidate, `${candidate.type} candidate has no raw value`);
    const text = JSON.stringify(shown);
    for (const secret of [CODE.value, LINK.value, 'Hs7Kq2Lm9Xp4Rt6Vw8Yz']) t.false(text.includes(secret), `${secret} shows`);
    t.false(text.includes(principal.orgId) || text.includes(principal.projectId), 'no tenant in the answer');
  }
  const byType = right(await app.extractions.latest(reader, identity.id, { waitSeconds: 0, type: 'magic_link' }));
  t.like(byType, { type: 'magic_link', redacted_value: 'https://app.example.com/•••', runner_up: true });
  t.false('value' in byType);
});

test('redacted reads: extractions.latest with reveal and without secrets:read is Forbidden naming the scope, before anything is read', async (t) => {
  const { app, identity, reader } = await withMail();
  t.deepEqual(forbiddenScopes(await app.extractions.latest(reader, identity.id, { waitSeconds: 0, reveal: true })), ['secrets:read']);
  t.deepEqual(forbiddenScopes(await app.extractions.latest(reader, 'ident_unknown', { waitSeconds: 0, reveal: true })), ['secrets:read'], 'an unknown identity answers the same');
  t.deepEqual(forbiddenScopes(await app.extractions.latest(reader, identity.id, { waitSeconds: 0, reveal: true, explain: true })), ['secrets:read']);
});

test('redacted reads: extractions.latest with reveal and secrets:read answers the raw value and each candidate’s', async (t) => {
  const { app, identity, revealer } = await withMail();
  const shown = right(await app.extractions.latest(revealer, identity.id, { waitSeconds: 0, reveal: true }));
  t.like(shown, { type: 'otp', value: CODE.value, redacted_value: '5•••9' });
  t.deepEqual(shown.candidates.map((c) => c.value), [CODE.value, LINK.value]);
  t.false('org_id' in shown || 'project_id' in shown || 'version' in shown, 'no record internals when revealed either');
  t.false('value' in right(await app.extractions.latest(revealer, identity.id, { waitSeconds: 0, reveal: false })));
});

const answering: WebhookTransport = { post: async () => ({ status: 200 }) };

test('redacted reads: a run’s secret is redacted by default, Forbidden to reveal without secrets:read, raw with it', async (t) => {
  const { app, principal, deliver, newIdentity } = await scriptedService({ scopes: ['identities:read', 'identities:write', 'reliability:write', 'secrets:read'] });
  const identity = await newIdentity();
  const run = right(await app.reliability.passwordReset(principal, { target_url: 'https://app.example.com/reset', identity_id: identity.id, timeout_seconds: 30 }));
  await app.reliability.jobsTick('w1', answering);
  await deliver(identity.email, CODE);
  await app.reliability.mailTick('w1');
  t.like(right(await app.reliability.get(principal, run.id)), { status: 'completed' });
  const runner = await sameTenant(app, principal, ['reliability:write', 'identities:read']);

  const shown = right(await app.reliability.secret(runner, run.id));
  t.deepEqual(shown, { run_id: run.id, type: 'otp', has_secret: true, redacted_value: '5•••9', link_kind: null });
  t.deepEqual(forbiddenScopes(await app.reliability.secret(runner, run.id, { reveal: true })), ['secrets:read']);
  t.deepEqual(forbiddenScopes(await app.reliability.secret(runner, 'run_unknown', { reveal: true })), ['secrets:read'], 'an unknown run answers the same');
  t.like(right(await app.reliability.secret(principal, run.id, { reveal: true })), { run_id: run.id, value: CODE.value });
  t.false('value' in right(await app.reliability.secret(principal, run.id)), 'secrets:read alone does not reveal: the read must ask');
});

/** A signed-in consumer of a scripted service, an identity of theirs with mail, and an agent of another tenant. */
const consumerWithMail = async () => {
  const links: string[] = [];
  const service = await scriptedService({ consumer: { onMagicLink: (_email, link) => links.push(link) } });
  const { app } = service;
  right(await app.consumer.signUp({ email: `p${Math.random().toString(36).slice(2)}@example.com`, clientIp: '127.0.0.1' }));
  const verified = right(await app.consumer.verify(new URL(links[0]!).searchParams.get('token')!));
  const { principal, consumer } = right(await app.consumer.authenticate(verified.session_token as string));
  const identity = right(await app.consumer.identities.create(principal, consumer, { label: 'mine' }));
  await service.deliver(identity.email, CODE, LINK);
  return { ...service, person: principal, identity };
};

test('redacted reads: a consumer’s own extraction is redacted unless they ask, and asking is enough (it is theirs)', async (t) => {
  const { app, person, identity } = await consumerWithMail();
  const shown = right(await app.consumer.extractions.latest(person, identity.id, { waitSeconds: 0 }));
  t.deepEqual(Object.keys(shown).sort(), PUBLIC_KEYS);
  t.false(JSON.stringify(shown).includes(CODE.value));
  t.like(right(await app.consumer.extractions.latest(person, identity.id, { waitSeconds: 0, reveal: true })), { value: CODE.value });
  t.deepEqual(forbiddenScopes(await app.extractions.latest(person, identity.id, { waitSeconds: 0, reveal: true })), ['secrets:read'], 'the agent read grants a session no reveal');
  t.false('value' in right(await app.extractions.latest(person, identity.id, { waitSeconds: 0 })));
});

test('redacted reads: an agent credential passed to the consumer reads is no owner: its reveal still needs secrets:read', async (t) => {
  const { app, principal, newIdentity, deliver } = await scriptedService();
  const identity = await newIdentity();
  await deliver(identity.email, CODE);
  const reader = await sameTenant(app, principal, ['identities:read']);
  t.deepEqual(forbiddenScopes(await app.consumer.extractions.latest(reader, identity.id, { waitSeconds: 0, reveal: true })), ['secrets:read']);
  const [message] = right(await app.messages.list(reader, identity.id, { limit: 1, offset: 0 })).items;
  t.deepEqual(forbiddenScopes(await app.consumer.messages.get(reader, identity.id, message!.id, { reveal: true })), ['secrets:read']);
  t.deepEqual(forbiddenScopes(await app.consumer.messages.list(reader, identity.id, { limit: 1, offset: 0, reveal: true })), ['secrets:read']);
});

test('redacted reads: the free tier answers its extraction redacted, and its token may not reveal', async (t) => {
  const { app, deliver } = await scriptedService();
  const made = right(await app.free.create({ clientIp: '203.0.113.40' })) as { id: string; email: string; token: string };
  await deliver(made.email, CODE, LINK);
  const shown = right(await app.free.extraction(made.id, made.token, '203.0.113.40'));
  t.like(shown, { status: 'ready', type: 'otp', has_secret: true, redacted_value: '5•••9' });
  t.deepEqual(Object.keys(shown).sort(), ['confidence', 'extracted_at', 'has_secret', 'redacted_value', 'status', 'type']);
  t.false(JSON.stringify(shown).includes(CODE.value));
  t.deepEqual(forbiddenScopes(await app.free.extraction(made.id, made.token, '203.0.113.40', { reveal: true })), ['secrets:read']);
  t.is(tagOf(await app.free.extraction(made.id, made.token, '203.0.113.40', { reveal: false })), 'Right');
});

test('redacted reads: messages.raw needs secrets:read in core, whatever route asks', async (t) => {
  const { app, identity, reader, revealer } = await withMail();
  const [message] = right(await app.messages.list(revealer, identity.id, { limit: 1, offset: 0 })).items;
  t.deepEqual(forbiddenScopes(await app.messages.raw(reader, identity.id, message!.id)), ['secrets:read']);
  t.true(Buffer.isBuffer(right(await app.messages.raw(revealer, identity.id, message!.id))));
});
