import test from 'ava';
import fc from 'fast-check';
import { extract, scoreCandidates } from '../../src/index.js';
import { message } from './helpers.js';

test('extract: a reset link whose secret is a long numeric path segment is a candidate, not nothing', (t) => {
  const href = 'https://accounts.example.org/password/reset/48230019475520193';
  const top = extract(message({ subject: 'Password reset', html: `<p>Follow this link to choose a new password:</p><p><a href="${href}">${href}</a></p>` })).top;
  t.is(top?.value, href);
  // The words before it say what the link is for, so its 17 digits count as a token in full.
  t.is(top?.evidence.signals.token, 2.5);
});

test('extract: a random value in a parameter of any name makes the link a candidate', (t) => {
  const href = 'https://portal.example.net/a/b?q=ZxbkQqmNwLPp';
  const found = extract(message({ subject: 'Bestätige deine Anmeldung', html: `<p>Bitte bestätige deine Anmeldung:</p><p><a href="${href}">Hier</a></p>` })).candidates;
  t.is(found.find((c) => c.value === href)?.evidence.signals.token, 1);
});

test('extract: a link of the site it sends to, with a token of its own, is not read as a redirector', (t) => {
  const href = 'https://app.example.org/members/?token=r3d4gC88ZtS3EyluWmuVGctl&action=signin&r=https%3A%2F%2Fapp.example.org%2Fblog%2F';
  const [link] = scoreCandidates(message({ subject: 'Sign in', html: `<p><a href="${href}">Sign in</a></p>` }));
  t.is(link?.value, href);
  t.is(link?.evidence.unwrapped, undefined);
  t.is(link?.evidence.signals.token, 2.5);
});

test('extract: a URL printed in the text that runs on past an anchor\'s href is that link, not a second one', (t) => {
  const href = 'https://kb.example.net/register/confirm/AxZugguaUxrYcFNsgQZB';
  const links = scoreCandidates(message({ subject: 'Confirm', html: `<p><a href="${href}">Confirm</a></p>`, text: `Confirm: ${href}Xrch}` })).filter((c) => c.type === 'magic_link');
  t.deepEqual(links.map((c) => c.value), [href]);
});

test('extract: a long hex token after a word asking to confirm is the code to send back', (t) => {
  const token = '0c463dd8db718a4295efeba41b75befccba9d70a';
  const text = `Include the following line in a message to list-request@lists.example.org:\n\n    confirm ${token}\n`;
  t.is(extract(message({ subject: 'Your confirmation is needed', text })).top?.value, token);
});

test('property: a random token in a query parameter of any name yields a link candidate (but names that say they carry none)', (t) => {
  // Tracking, locale, identity and after-login names say their value is no secret (url-features.ts).
  const name = fc.stringMatching(/^[a-z]{1,8}$/).filter((n) => !/^(email|lang|locale|hl|theme|source|ref|medium|campaign|name|type|expires?|expire|mode|scope|next|continue|state|service|origin|referr?er)$/.test(n));
  const value = fc.oneof(fc.stringMatching(/^[0-9]{12,24}$/), fc.stringMatching(/^[A-Za-z0-9]{16,40}$/).filter((v) => /\d/.test(v) && /[A-Za-z]/.test(v)));
  fc.assert(
    fc.property(name, value, fc.constantFrom('Confirm your address:', 'Bitte bestätige deine Adresse:', 'Подтвердите адрес:', 'メールアドレスを確認してください：'), (n, v, lead) => {
      const href = `https://app.example.com/a/b?${n}=${v}`;
      const found = extract(message({ subject: 'Account', html: `<p>${lead}</p><p><a href="${href}">${href}</a></p>` })).candidates;
      return found.some((c) => c.type === 'magic_link' && c.value === href && c.evidence.signals.token !== undefined);
    }),
    { numRuns: 300 },
  );
  t.pass();
});
