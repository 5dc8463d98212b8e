import { randomUUID } from 'node:crypto';
import test from 'ava';
import { tenantHost } from './tenant-host.js';

/**
 * `extractions/latest?explain=true` against the real host: mail through its MX over SMTP, reads
 * over HTTP. The weights are the engine's to decide, so these tests assert the shape, the order
 * and that no secret shows, never a contribution's value.
 */

const ORG = 'org_explain';
const PROJECT = 'proj_explain';
// A code used by no other test or fixture: if it shows in an explanation, it came from this mail.
const CODE = '740913';
const LINK = 'https://app.example.com/auth/login?token=Zr47uQw19KdXpN3v';

const { host, keyWith, clientOf, headersOf, send } = tenantHost(test, { org: ORG, project: PROJECT, inboxDomain: 'explain.test' });

const newKey = () => keyWith(['identities:read', 'identities:write', 'secrets:read']);

const get = async (key: string, path: string) => {
  const res = await fetch(`${host().url}${path}`, { headers: headersOf(key) });
  return { status: res.status, text: await res.text() };
};

const sendBoth = (to: string) =>
  send(to, {
    subject: 'Sign in to App',
    text: `Your sign-in code is ${CODE}.\nOr sign in with this link: ${LINK}`,
    html: `<p>Your sign-in code is <b>${CODE}</b>.</p><p>Or <a href="${LINK}">sign in with one click</a>.</p>`,
  });

type Contribution = { signal: string; contribution: number };
const sortedBySize = (list: readonly Contribution[]) => list.every((c, i) => i === 0 || Math.abs(list[i - 1]!.contribution) >= Math.abs(c.contribution));
/** Every run of 4 or more characters of a value: a secret's piece that must not show. */
const piecesOf = (value: string) => Array.from({ length: value.length - 3 }, (_, i) => value.slice(i, i + 4));

const identityWithMail = async (label: string) => {
  const key = await newKey();
  const identity = await clientOf(key).createIdentity({ label });
  await sendBoth(identity.email);
  return { key, id: identity.id };
};

type Explained = { type: string; redacted_value: string; explain: Contribution[]; candidates: { type: string; redacted_value: string; explain: Contribution[] }[] };

test('explain=true with reveal=true gives the secret shown and each candidate every term of its score, largest first, the bias among them', async (t) => {
  const { key, id } = await identityWithMail('explained');
  const read = await get(key, `/v1/identities/${id}/extractions/latest?explain=true&reveal=true`);
  t.is(read.status, 200);
  const body = JSON.parse(read.text) as Explained;
  t.true(body.explain.length > 1, 'the answer has contributions');
  t.true(sortedBySize(body.explain));
  t.true(body.explain.some((c) => c.signal === 'bias'));
  t.true(body.candidates.length >= 1);
  t.true(body.candidates.some((c) => c.type === 'otp' && c.explain.some((x) => x.signal === 'shape')), 'the code’s shape is among its terms');
  for (const c of body.candidates) {
    t.true(c.explain.length > 1, `${c.type} candidate has contributions`);
    t.true(sortedBySize(c.explain), `${c.type} candidate's contributions are largest first`);
  }
  const winner = body.candidates.find((c) => c.type === body.type && c.redacted_value === body.redacted_value);
  t.deepEqual(winner?.explain, body.explain, 'the answer and its candidate share their reasons');
});

test('explain=true without a reveal gives only the signals of each secret’s context: no shape, no token, no bias to add up', async (t) => {
  const { key, id } = await identityWithMail('explained masked');
  const read = await get(key, `/v1/identities/${id}/extractions/latest?explain=true`);
  t.is(read.status, 200);
  const body = JSON.parse(read.text) as Explained;
  t.true(body.explain.length > 0, 'the answer has context contributions');
  t.true(sortedBySize(body.explain));
  const signals = [...body.explain, ...body.candidates.flatMap((c) => c.explain)].map((c) => c.signal);
  for (const left of ['bias', 'base', 'shape', 'token', 'no_token', 'url_words']) t.false(signals.includes(left), `${left} shows`);
  const winner = body.candidates.find((c) => c.type === body.type && c.redacted_value === body.redacted_value);
  t.deepEqual(winner?.explain, body.explain, 'the answer and its candidate share their reasons');
});

test('explanations hold no secret: neither the code nor the link, nor any piece of them, in the signals or their numbers', async (t) => {
  const { key, id } = await identityWithMail('no secret');
  for (const query of ['explain=true', 'explain=true&type=otp', 'explain=true&type=magic_link', 'explain=true&reveal=true']) {
    const read = await get(key, `/v1/identities/${id}/extractions/latest?${query}`);
    if (read.status === 404) continue;
    const body = JSON.parse(read.text) as { explain: unknown; candidates: { explain: unknown }[] };
    const why = JSON.stringify([body.explain, body.candidates.map((c) => c.explain)]);
    t.true(why.length > 20, `${query}: explained`);
    for (const piece of [...piecesOf(CODE), ...piecesOf('Zr47uQw19KdXpN3v')]) t.false(why.includes(piece), `${query}: ${piece} shows`);
    t.false(why.includes('app.example.com'), `${query}: the link's host shows`);
  }
});

test('without explain, or with explain=false, a read carries no contributions', async (t) => {
  const { key, id } = await identityWithMail('unexplained');
  for (const query of ['', '?explain=false', '?reveal=true']) {
    const body = JSON.parse((await get(key, `/v1/identities/${id}/extractions/latest${query}`)).text) as Record<string, unknown> & { candidates: object[] };
    t.false('explain' in body, `${query || 'no query'}: no explain`);
    t.false(body.candidates.some((c) => 'explain' in c), `${query || 'no query'}: no candidate explain`);
  }
});

test('explain=true with type= explains the secret of that type that the read answers', async (t) => {
  const { key, id } = await identityWithMail('by type');
  const read = await get(key, `/v1/identities/${id}/extractions/latest?type=otp&explain=true&reveal=true`);
  t.is(read.status, 200);
  const body = JSON.parse(read.text) as { value: string; explain: Contribution[]; candidates: { value: string; explain: Contribution[] }[] };
  t.is(body.value, CODE);
  t.deepEqual(body.explain, body.candidates.find((c) => c.value === CODE)?.explain);
});

test('explain other than true or false is 400 invalid_request naming the query field', async (t) => {
  const key = await newKey();
  const identity = await clientOf(key).createIdentity({ label: 'bad explain' });
  const read = await get(key, `/v1/identities/${identity.id}/extractions/latest?explain=yes`);
  t.is(read.status, 400);
  const body = JSON.parse(read.text) as { error: { code: string; details: { issues: { path: string }[] } } };
  t.is(body.error.code, 'invalid_request');
  t.true(body.error.details.issues.some((issue) => issue.path === 'query.explain'));
});

test('explain=true reruns the engine with the identity’s template rules: the code a deployed template picks has its reasons', async (t) => {
  const key = await keyWith(['identities:read', 'identities:write', 'secrets:read', 'marketplace:read', 'marketplace:deploy']);
  const deployed = await fetch(`${host().url}/v1/marketplace/templates/tmpl_store_signup_code_v1/deploy`, {
    method: 'POST',
    headers: { ...headersOf(key), 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
    body: JSON.stringify({ parameters: { service_name: 'Northwind Store', sender_domain: 'shop.example.com', code_length: 5 } }),
  });
  t.is(deployed.status, 201);
  const identity = ((await deployed.json()) as { identity: { id: string; email: string } }).identity;
  // The generic engine picks the support PIN here; only the template's rules find 44172.
  const text = 'Welcome! Your order 582931 is confirmed.\nTo finish creating your account, enter this verification code: 44172\nSupport PIN: 918273';
  await send(identity.email, { from: 'Northwind Store <no-reply@shop.example.com>', subject: 'Welcome to Northwind Store', text });
  const read = await get(key, `/v1/identities/${identity.id}/extractions/latest?wait=10&reveal=true&explain=true`);
  const body = JSON.parse(read.text) as { value: string; explain: Contribution[] };
  t.is(body.value, '44172');
  t.true(body.explain.length > 0, 'the rule-made candidate is found again, so it has reasons');
  t.true(body.explain.some((c) => c.signal === 'rule'));
});
