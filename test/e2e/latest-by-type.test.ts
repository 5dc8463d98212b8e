import test from 'ava';
import type { Extraction } from '@ephemail/client';
import { tenantHost } from './tenant-host.js';

/**
 * `extractions/latest?type=` against the real host: mail through its MX over SMTP, reads over
 * HTTP with fetch and with the typed client. Confidences are the engine's to decide, so these
 * tests assert which secret answers, never a confidence value.
 */

const ORG = 'org_bytype';
const PROJECT = 'proj_bytype';
const CODE = '318264';
const LINK = 'https://app.example.com/auth/login?token=Qm81kLx02PzT7vW4abcd';

const { host, keyWith, clientOf, headersOf, send } = tenantHost(test, { org: ORG, project: PROJECT, inboxDomain: 'bytype.test' });

const newKey = () => keyWith(['identities:read', 'identities:write', 'secrets:read']);

const get = async (key: string, path: string) => {
  const res = await fetch(`${host().url}${path}`, { headers: headersOf(key) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

const sendCode = (to: string) => send(to, { subject: 'Your sign-in code', text: `Your verification code is ${CODE}. It expires in 10 minutes.` });
const sendLink = (to: string) => send(to, { subject: 'Sign in to App', html: `<p>Sign in with one click: <a href="${LINK}">Sign in</a></p>` });
/** One mail holding both a code and a sign-in link. */
const sendBoth = (to: string) =>
  send(to, {
    subject: 'Sign in to App',
    text: `Your sign-in code is ${CODE}.\nOr sign in with this link: ${LINK}`,
    html: `<p>Your sign-in code is <b>${CODE}</b>.</p><p>Or <a href="${LINK}">sign in with one click</a>.</p>`,
  });

/** What a read by `type` must answer for this extraction: its winner, else its best runner-up of that type at confidence ≥ 0.5. */
const expectedOfType = (all: Extraction, type: Extraction['type']) =>
  all.type === type ? { value: all.value, runner_up: false } : all.candidates.filter((c) => c.type === type && c.confidence >= 0.5).map((c) => ({ value: c.value, runner_up: true }))[0];

test('by type: after a code mail and then a link mail, type=otp answers the code at once and type=magic_link the link', async (t) => {
  const key = await newKey();
  const client = clientOf(key);
  const identity = await client.createIdentity({ label: 'two mails' });
  await sendCode(identity.email);
  await sendLink(identity.email);
  await client.waitForLink(identity.id, { timeoutMs: 20_000 });
  const base = `/v1/identities/${identity.id}/extractions/latest`;
  t.like((await get(key, `${base}?type=otp&reveal=true`)).json, { type: 'otp', value: CODE, runner_up: false });
  t.like((await get(key, `${base}?type=magic_link&reveal=true`)).json, { type: 'magic_link', value: LINK, runner_up: false });
  t.like((await get(key, base)).json, { type: 'magic_link', runner_up: false }, 'without type: the latest extraction');
  // Before type=, waitForCode stepped past the latest extraction (the link) and waited out its time.
  t.is((await client.waitForCode(identity.id, { timeoutMs: 5_000 })).code, CODE);
  t.is((await client.latestExtraction(identity.id, { type: 'otp', reveal: true }))?.value, CODE);
});

test('by type: one mail holding a code and a link answers each type with its winner, or its runner-up when the engine is sure of it', async (t) => {
  const key = await newKey();
  const client = clientOf(key);
  const identity = await client.createIdentity({ label: 'one mail' });
  await sendBoth(identity.email);
  // The MX answers 250 once the message and its extraction are stored.
  const all = await client.latestExtraction(identity.id, { reveal: true });
  if (all === undefined) return t.fail('the mail yielded no extraction');
  let answered = 0;
  for (const type of ['otp', 'magic_link'] as const) {
    const expected = expectedOfType(all, type);
    const read = await get(key, `/v1/identities/${identity.id}/extractions/latest?type=${type}&reveal=true`);
    if (expected === undefined) {
      t.is(read.status, 404, `${type}: the engine holds no sure ${type} in this mail`);
      t.is(read.json.error.code, 'extraction_not_found');
      t.log(`${type}: not served (its best candidate is below 0.5)`);
      continue;
    }
    answered += 1;
    t.like(read.json, { id: all.id, type, ...expected });
    t.is(expected.value, type === 'otp' ? CODE : LINK);
    const waited = type === 'otp' ? (await client.waitForCode(identity.id, { timeoutMs: 5_000 })).code : (await client.waitForLink(identity.id, { timeoutMs: 5_000 })).link;
    t.is(waited, expected.value);
    t.log(`${type}: served as ${expected.runner_up ? 'runner-up' : 'winner'}`);
  }
  t.true(answered >= 1, 'the mail answers at least the type of its winner');
});

test('by type: a link wait is woken by a mail holding a link, and answers it', async (t) => {
  const key = await newKey();
  const client = clientOf(key);
  const identity = await client.createIdentity({ label: 'waking' });
  const waiting = client.waitForLink(identity.id, { timeoutMs: 20_000 });
  await sendBoth(identity.email);
  t.is((await waiting).link, LINK);
});

test('by type: an unknown type is 400 invalid_request naming the query field', async (t) => {
  const key = await newKey();
  const identity = await clientOf(key).createIdentity({ label: 'bad type' });
  const read = await get(key, `/v1/identities/${identity.id}/extractions/latest?type=password`);
  t.is(read.status, 400);
  t.is(read.json.error.code, 'invalid_request');
  t.true(read.json.error.details.issues.some((issue: { path: string }) => issue.path === 'query.type'));
});
