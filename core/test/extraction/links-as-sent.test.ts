import test from 'ava';
import { extract } from '../../src/index.js';
import { message } from './helpers.js';

// Links as mailers rewrite and lay them out: HTML twins of plain mail, trackers, footers.

const TOKEN = 'Wq4ZrT8mKpX2vLn7HsBc';

test('extract: the HTML twin of a plain mail, its URLs anchors that print themselves, gives the link the text gives', (t) => {
  // The host names a help site: its words are the site's, not the link's.
  const href = `https://help.example.net/account/activate/${TOKEN}`;
  const text = `Hello Mira,\n\nthanks for signing up. To activate your account, open:\n${href}\n\nSee you soon`;
  const html = text
    .split('\n')
    .map((line) => line.replace(/https:\/\/\S+/g, (u) => `<a href="${u}">${u}</a>`))
    .join('<br />\n');
  const fromText = extract(message({ subject: 'Welcome', text })).top;
  const fromBoth = extract(message({ subject: 'Welcome', text, html })).top;
  t.is(fromText?.value, href);
  t.is(fromBoth?.value, href);
  t.true((fromBoth?.confidence ?? 0) >= 0.5, String(fromBoth?.confidence));
});

test('extract: of a confirm and a cancel link sharing one token, the cancel one loses, told by its emphasised sentence and its path word', (t) => {
  const confirm = `https://portal.example.com/anmeldung/${TOKEN}`;
  const cancel = `https://portal.example.com/anmeldung/${TOKEN}/verwerfen`;
  const text = [
    'Hello, to finish, visit this page:',
    confirm,
    '',
    'This message may *not* be meant for you. If you did *not* ask to confirm this address, this link invalidates it:',
    cancel,
  ].join('\n');
  const found = extract(message({ subject: 'Anmeldung', text })).candidates;
  t.is(found[0]?.value, confirm);
  const undo = found.find((c) => c.value === cancel);
  t.true(undo === undefined || (undo.evidence.signals.role_negative !== undefined && undo.evidence.signals.footer_link !== undefined), JSON.stringify(undo?.evidence.signals));
});

test('extract: a reset link whose only secret is a long run of digits in its path is found surely', (t) => {
  const href = 'https://members.example.com/pw/730019284475120963';
  const text = `A new password was asked for your account.\nTo choose one, follow this link:\n${href}\n`;
  const html = `<p>A new password was asked for your account.</p><p><a href="${href}">Click here</a></p>`;
  for (const body of [{ text }, { html }]) {
    const top = extract(message({ subject: 'Your account', ...body })).top;
    t.is(top?.value, href);
    t.true((top?.confidence ?? 0) >= 0.5, String(top?.confidence));
  }
});

test('extract: a click tracker on the sender\'s own domain is read by its destination, not by its own id', (t) => {
  const login = `https://links.example.com/ls/click?u=${encodeURIComponent('https://app.example.com/login')}&id=9f3c2a77b1d04e58`;
  const reset = `https://links.example.com/ls/click?u=${encodeURIComponent(`https://app.example.com/reset/${TOKEN}`)}&id=0b8e4d21c9a3f766`;
  const plain = extract(message({ subject: 'Your account', html: `<p>You already have an account. <a href="${login}">Sign in here</a>.</p>` })).top;
  t.true(plain === undefined || plain.confidence < 0.5, String(plain?.confidence));
  const secret = extract(message({ subject: 'Reset your password', html: `<p>To choose a new password, <a href="${reset}">click here</a>.</p>` })).top;
  t.is(secret?.value, reset);
  t.is(secret?.evidence.unwrapped, `https://app.example.com/reset/${TOKEN}`);
  t.true((secret?.confidence ?? 0) >= 0.5, String(secret?.confidence));
});

test('extract: a destination carried in a tracker\'s path or base64-encoded in its query is unwrapped', (t) => {
  const dest = `https://app.example.com/verify/${TOKEN}`;
  for (const href of [
    `https://t.example.net/CL0/${encodeURIComponent(dest)}/1/0f9e8d7c6b5a49382716a5b4c3d2e1f0-1a2b3c4d/412`,
    `https://click.example.org/r/3?d=${Buffer.from(dest).toString('base64url')}&s=8a7b6c5d4e3f`,
  ]) {
    const top = extract(message({ subject: 'Verify your email', html: `<p><a href="${href}">Verify</a></p>` })).top;
    t.is(top?.evidence.unwrapped, dest, href);
  }
});

test('extract: a link to the site\'s root is not the start of the secret link the text prints', (t) => {
  const href = `https://app.example.com/invite/accept/${TOKEN}`;
  const html = `<p>You were invited to the team. The link is in the text of this mail.</p><p><a href="https://app.example.com/">Example</a></p>`;
  const text = `You were invited to the team. Accept the invitation: ${href}`;
  const top = extract(message({ subject: 'Invitation', html, text })).top;
  t.is(top?.value, href);
});

test('extract: a URL a text prints in braces is read without them', (t) => {
  const href = `https://docs.example.org/register/confirm/${TOKEN}`;
  const top = extract(message({ subject: 'Confirm your email', text: `Confirm your address: {${href}}` })).top;
  t.is(top?.value, href);
});

test('extract: a link of the very host it sends on to keeps its own token, in its path or under any name', (t) => {
  const after = encodeURIComponent('https://www.example.com/blog/a-long-read/');
  for (const href of [`https://www.example.com/members/${TOKEN}?action=signin&r=${after}`, `https://www.example.com/members/?v=${TOKEN}&action=signin&r=${after}`]) {
    const top = extract(message({ subject: 'Sign in', html: `<p><a href="${href}">Sign in</a></p>` })).top;
    t.is(top?.value, href);
    t.is(top?.evidence.unwrapped, undefined);
    t.is(top?.evidence.signals.token, 2.5);
  }
});
