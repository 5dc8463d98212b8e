import test from 'ava';
import fc from 'fast-check';
import { secretMasker, secretsToMask } from '../src/extraction/secret-masker.js';

test('secret masker: a code is hidden as its redacted form wherever it stands as a word, split or not', (t) => {
  const mask = secretMasker([{ type: 'otp', value: '482913' }]);
  t.is(mask('482913 is your code'), '4•••3 is your code');
  t.is(mask('Code: 482 913. Or 482-913.'), 'Code: 4•••3. Or 4•••3.');
  t.is(mask('order 14829130 and x482913y'), 'order 14829130 and x482913y', 'not inside a longer word');
});

test('secret masker: a link is hidden in its own and its HTML-escaped spelling, and its token wherever it appears', (t) => {
  const link = 'https://app.example.com/verify?token=Ab12Cd34Ef56&u=7';
  const mask = secretMasker([{ type: 'magic_link', value: link }]);
  t.is(mask(`<a href="${link.replace('&', '&amp;')}">go</a>`), '<a href="https://app.example.com/•••">go</a>');
  t.is(mask(`Open ${link} now`), 'Open https://app.example.com/••• now');
  t.is(mask('or paste Ab12Cd34Ef56 by hand'), 'or paste ••• by hand');
});

test('secret masker: candidates below the threshold are kept visible; none at all leaves the text as it is', (t) => {
  const secrets = secretsToMask({
    candidates: [
      { type: 'otp', value: '111111', confidence: 0.9, evidence: { sources: [], snippet: '', signals: {} } },
      { type: 'otp', value: '222222', confidence: 0.06, evidence: { sources: [], snippet: '', signals: {} } },
      { type: 'otp', value: '333333', confidence: 0.02, evidence: { sources: [], snippet: '', signals: {} } },
    ],
  });
  t.deepEqual(secrets.map((s) => s.value), ['111111', '222222']);
  t.is(secretMasker([])('111111'), '111111');
});

test('secret masker: property — no code of 4 to 10 characters survives in any text around it', (t) => {
  const code = fc.stringMatching(/^[0-9A-Z]{4,10}$/);
  const filler = fc.stringMatching(/^[ a-z.,:!\n]{0,40}$/);
  fc.assert(
    fc.property(code, filler, filler, (value, before, after) => {
      const text = `${before} ${value} ${after}`;
      return !secretMasker([{ type: 'otp', value }])(text).includes(value);
    }),
  );
  t.pass();
});
