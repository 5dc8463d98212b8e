import test from 'ava';
import fc from 'fast-check';
import { decodeEntities } from '../../src/extraction/entities.js';
import { extract } from '../../src/extraction/extract.js';
import { htmlSecretMasker } from '../../src/extraction/html-mask.js';
import { secretMasker, secretsToMask } from '../../src/extraction/secret-masker.js';
import { message } from './helpers.js';

/**
 * What a reader (or a program) can still read of `code` in a served text: tags dropped, references
 * decoded, every character that is not a letter or digit dropped, case folded. The fillers around
 * codes in these tests hold no digits, and every code holds one, so a hit is the code itself.
 */
const readable = (served: string, code: string): boolean => {
  const plain = decodeEntities(served.replace(/<[^>]*>/g, '')).replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
  return plain.includes(code.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase());
};

const html = (secrets: { type: 'otp'; value: string }[]) => htmlSecretMasker(secrets);

test('html mask: a code split into cells, bold runs, references or a no-break space is masked where the reader sees it', (t) => {
  const mask = html([{ type: 'otp', value: '482913' }]);
  const cases = [
    '<p>Your verification code is:</p><table><tr><td>4</td><td>8</td><td>2</td><td>9</td><td>1</td><td>3</td></tr></table>',
    '<p>Your verification code is: <b>482</b><b>913</b></p>',
    '<p>Your verification code is: &#52;&#56;&#50;&#57;&#49;&#51;</p>',
    '<p>Your verification code is: &#x34;&#x38;&#x32;&#x39;&#x31;&#x33;</p>',
    '<p>Your verification code is: 482&nbsp;913</p>',
    '<p>Your code</p><img alt="482913" src="cid:x"><span title="4 8 2 9 1 3">here</span>',
    '<p>Your code</p><!-- 482913 --><p>here</p>',
    '<p>Type 482&ZeroWidthSpace;913 or 48&NoBreak;2913 or 482&InvisibleSeparator;913.</p>',
  ];
  for (const body of cases) {
    const served = mask(body);
    t.false(served.withheld, body);
    t.false(readable(served.html, '482913'), `${body} → ${served.html}`);
    t.true(served.html.includes('4•••3') || !served.html.includes('code is'), served.html);
  }
  t.is(mask('<table><tr><td>4</td><td>8</td><td>2</td></tr></table>').html, '<table><tr><td>4</td><td>8</td><td>2</td></tr></table>', 'another number is left alone');
});

test('html mask: the markup around a masked code is kept; a code in a link attribute is masked in place', (t) => {
  const mask = html([{ type: 'otp', value: '482913' }]);
  t.is(mask('<td>4</td><td>8</td><td>2</td><td>9</td><td>1</td><td>3</td>').html, '<td>4•••3</td><td></td><td></td><td></td><td></td><td></td>');
  t.is(mask('<a href="https://app.example.com/verify?code=482913&amp;u=1">Verify</a>').html, '<a href="https://app.example.com/verify?code=4•••3&amp;u=1">Verify</a>');
});

test('html mask: a secret the views cannot locate is withheld with the whole HTML, never served', (t) => {
  const mask = html([{ type: 'otp', value: '482913' }]);
  // Neither a text node, an attribute value nor a comment: a bare word inside a tag.
  const served = mask('<p>Hi</p><p 482913>there</p>');
  t.true(served.withheld);
  t.is(served.html, '');
  t.false(mask('<script>var a = 1 <b; var c = "482913";</script>').html.includes('482913'), "a script's string is read as a value and masked");
  t.deepEqual(html([])('<p>482913</p>'), { html: '<p>482913</p>', withheld: false }, 'no secret, nothing to hide');
});

test('secret masker: a dashed or grouped code is masked in any grouping, dashes kept or not (issue: the dash kept it visible)', (t) => {
  const dashed = secretMasker([{ type: 'otp', value: 'QX7K-92MD' }]);
  t.is(dashed('Your sign-in code is QX7K-92MD'), 'Your sign-in code is Q•••D');
  t.is(dashed('or type qx7k 92md, or QX7K92MD'), 'or type Q•••D, or Q•••D');
  const grouped = secretMasker([{ type: 'otp', value: 'K7Q2-M9X4-P3L8-W6Z1' }]);
  t.is(grouped('Backup: K7Q2-M9X4-P3L8-W6Z1.'), 'Backup: K•••1.');
  t.is(grouped('K7Q2 M9X4 P3L8 W6Z1'), 'K•••1');
  const dotted = secretMasker([{ type: 'otp', value: '482913' }]);
  t.is(dotted('Code 482.913 or 4 8 2 9 1 3 or 482–913'), 'Code 4•••3 or 4•••3 or 4•••3');
});

/** Ways a mail's HTML spells or splits a code, each as the reader still reads it whole. */
const spellings: Record<string, (code: string) => string> = {
  plain: (c) => c,
  cells: (c) => `<table><tr>${[...c].map((ch) => `<td>${ch}</td>`).join('\n  ')}</tr></table>`,
  bold: (c) => `<b>${c.slice(0, Math.ceil(c.length / 2))}</b><b>${c.slice(Math.ceil(c.length / 2))}</b>`,
  decimal: (c) => [...c].map((ch) => `&#${ch.codePointAt(0)};`).join(''),
  hex: (c) => [...c].map((ch) => `&#x${ch.codePointAt(0)!.toString(16)};`).join(''),
  nbsp: (c) => `${c.slice(0, 3)}&nbsp;${c.slice(3)}`,
  spans: (c) => [...c].map((ch) => `<span style="padding:2px">${ch}</span>`).join(''),
  box: (c) => `<div style="font-size:32px;letter-spacing:8px;border:1px solid #ccc">${c}</div>`,
  comment: (c) => `${c.slice(0, 2)}<!-- -->${c.slice(2)}`,
};

/** Code shapes the engine extracts: digits, grouped with spaces, dashes or dots, letters and digits, hex. */
const shapes = fc.oneof(
  fc.stringMatching(/^[1-9][0-9]{5,7}$/),
  fc.tuple(fc.stringMatching(/^[1-9][0-9]{2}$/), fc.constantFrom(' ', '-', '.'), fc.stringMatching(/^[0-9]{3}$/)).map(([a, s, b]) => `${a}${s}${b}`),
  fc.stringMatching(/^[A-HJ-NP-Z]{2}[2-9][A-HJ-NP-Z2-9]-[2-9][A-HJ-NP-Z2-9]{3}$/),
  fc.stringMatching(/^[0-9a-f]{6,8}$/).filter((s) => /\d/.test(s) && /[a-f]/.test(s)),
);

test('html mask: property — for any code the engine extracts and any spelling of it in HTML, the served HTML and text hold it in no spelling', (t) => {
  let checked = 0;
  fc.assert(
    fc.property(shapes, fc.constantFrom(...Object.keys(spellings)), (code, how) => {
      const body = `<html><body><p>Use this verification code to sign in:</p><p>${spellings[how]!(code)}</p><p>It expires soon.</p></body></html>`;
      const parsed = message({ subject: `Your verification code is ${code}`, html: body, text: `Your verification code is ${code}` });
      const result = extract(parsed);
      const found = result.candidates.find((c) => c.type === 'otp' && c.value.replace(/[^\p{L}\p{N}]/gu, '') === code.replace(/[^\p{L}\p{N}]/gu, ''));
      fc.pre(found !== undefined && found.confidence >= 0.05);
      checked += 1;
      const secrets = secretsToMask(result);
      const served = htmlSecretMasker(secrets)(body);
      const text = secretMasker(secrets);
      return !readable(served.html, code) && !readable(text(parsed.subject), code) && !readable(text(parsed.text), code);
    }),
    { numRuns: 300 },
  );
  t.true(checked > 150, `the engine extracted ${checked} of the generated codes`);
});
