import test from 'ava';
import type { Contribution, ParsedMessage } from '../../src/index.js';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../../src/index.js';
import { newPrincipal, right } from '../support.js';

// `explain=true` without a reveal says nothing the redacted value does not (ADR 0063): the
// signals that read the secret's own characters or length are left out, so a code's length
// cannot be read off its reasons. Revealed, every term of the score is shown.

/** A service whose parser answers the message a test registered for the bytes it delivers; the engine runs for real. */
const engineService = async () => {
  const parsed = new Map<string, ParsedMessage>();
  const app = createEphemail({
    store: createMemoryDocumentStore(),
    inboxDomain: 'inbox.test',
    clock: new FakeClock('2026-03-01T12:00:00.000Z'),
    parser: { parse: async (raw) => ({ ok: true, message: parsed.get(Buffer.from(raw).toString())! }) },
  });
  await app.init();
  const principal = await newPrincipal(app, { scopes: ['identities:read', 'identities:write', 'secrets:read'] });
  /** A new identity that received `text` (with `subject`), as a transport delivers it. */
  const identityWith = async (subject: string, text: string) => {
    const identity = right(await app.identities.create(principal, { label: 'explained' }));
    const key = `raw-${parsed.size}-${Math.random()}`;
    parsed.set(key, {
      envelopeFrom: 'bounce@app.example.com', from: { address: 'no-reply@app.example.com', name: 'App' }, to: [{ address: identity.email, name: '' }],
      subject, date: null, messageId: `<${key}@app.example.com>`, headers: {}, text, html: '', attachments: [],
    });
    await app.mail.ingress.deliver(Buffer.from(key), { transport: 'smtp', mailFrom: 'bounce@app.example.com', rcptTo: [identity.email] });
    return identity.id;
  };
  return { app, principal, identityWith };
};

type Explained = { readonly type: string; readonly explain?: readonly Contribution[]; readonly candidates: readonly { readonly type: string; readonly explain?: readonly Contribution[] }[] };
const reasonsOf = (x: Explained) => ({ answer: x.explain, candidates: x.candidates.map((c) => [c.type, c.explain]) });
const signalsOf = (list: readonly Contribution[] | undefined) => (list ?? []).map((c) => c.signal);

// The same mail, but for the code: its length (and a code of letters and digits) is all that changes.
const CODES = ['73915', '739154', '7391548', '73915482', 'K7Q2M9'];
const mailOf = (code: string) => `Hello,\n\nYour verification code is ${code}. It expires soon.\n\nThanks,\nThe App team\n`;

test('explain without a reveal: two mails that differ only in the code’s length or characters give the same explanation', async (t) => {
  const { app, principal, identityWith } = await engineService();
  const shown: Explained[] = [];
  for (const code of CODES) {
    const id = await identityWith('Your verification code', mailOf(code));
    shown.push(right(await app.extractions.latest(principal, id, { waitSeconds: 0, explain: true })));
  }
  t.true((shown[0]!.explain ?? []).length > 0, 'context signals are shown');
  for (const [i, x] of shown.entries()) t.deepEqual(reasonsOf(x), reasonsOf(shown[0]!), `${CODES[i]} explained as ${CODES[0]}`);
});

test('explain without a reveal: no signal of the secret’s own shape, and no bias or base to make a sum of', async (t) => {
  const { app, principal, identityWith } = await engineService();
  const id = await identityWith('Sign in to App', `${mailOf('739154')}\nOr sign in with this link: https://app.example.com/auth/login?token=Zr47uQw19KdXpN3v\n`);
  const shown = right(await app.extractions.latest(principal, id, { waitSeconds: 0, explain: true }));
  const all = [...signalsOf(shown.explain), ...shown.candidates.flatMap((c) => signalsOf(c.explain))];
  t.true(all.length > 0);
  for (const left of ['shape', 'split', 'bias', 'base', 'token', 'no_token', 'url_words', 'no_purpose', 'site', 'social']) t.false(all.includes(left), `${left} is shown`);
});

test('explain with a reveal: the full terms of the score, the shape among them', async (t) => {
  const { app, principal, identityWith } = await engineService();
  const [five, six] = [await identityWith('Your verification code', mailOf('73915')), await identityWith('Your verification code', mailOf('739154'))];
  const revealed = async (id: string) => right(await app.extractions.latest(principal, id, { waitSeconds: 0, explain: true, reveal: true }));
  const [a, b] = [await revealed(five), await revealed(six)];
  t.true(signalsOf(a.explain).includes('shape') && signalsOf(a.explain).includes('bias'));
  t.notDeepEqual(a.explain, b.explain, 'revealed, the shape tells the lengths apart');
});
