import test from 'ava';
import fc from 'fast-check';
import type { Candidate, ParsedMessage } from '../../src/index.js';
import { explainCandidate, extract } from '../../src/index.js';
import { contextContributions } from '../../src/extraction/context-signals.js';
import { message } from './helpers.js';

// What an explanation may show a caller who does not see the secret: the contributions of its
// context only. Whatever the secret spells, the same mail around it gives the same list.

const word = fc.stringMatching(/^[a-z]{1,10}$/);
const prose = fc.array(fc.array(word, { minLength: 2, maxLength: 10 }).map((ws) => `${ws.join(' ')}.`), { maxLength: 3 }).map((ss) => ss.join(' '));

// Every shape the engine reads as a code: digits of every length, grouped, letters and digits, hex.
const code = fc.oneof(
  fc.stringMatching(/^[1-9][0-9]{3,9}$/).filter((c) => !/^(19|20)\d\d$/.test(c)),
  fc.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/).filter((c) => /[A-Z]/.test(c)),
  fc.stringMatching(/^[A-Z]{2}[0-9][A-Z0-9]{3,9}$/),
  fc.stringMatching(/^[0-9a-f]{16,40}$/).filter((c) => /[0-9]/.test(c) && /[a-f]/.test(c)),
);

// Layouts that give different context signals: after a code word, labelled, alone under a code
// word, a command line, in parentheses, before a duration, after a hash.
const LAYOUTS = [
  'Your verification code is {c}. It expires soon.',
  'Verification code: {c}',
  'Your sign-in code:\n\n{c}\n',
  'confirm {c}',
  'Sign in with the button (code {c}).',
  'Enter {c} within 10 minutes.',
  'Your order #{c} has shipped.',
];

const found = (m: ParsedMessage, type: Candidate['type'], value: string) => extract(m).candidates.find((c) => c.type === type && c.value === value);

test('context signals: a code’s shown contributions are the same whatever code stands in the same mail', (t) => {
  let compared = 0;
  fc.assert(
    fc.property(fc.constantFrom(...LAYOUTS), code, code, prose, prose, fc.boolean(), (layout, a, b, before, after, codeSubject) => {
      const mail = (c: string) => message({ subject: codeSubject ? 'Your verification code' : 'Hello', text: `${before}\n\n${layout.replace('{c}', c)}\n\n${after}` });
      const [x, y] = [found(mail(a), 'otp', a), found(mail(b), 'otp', b)];
      if (x === undefined || y === undefined) return true;
      compared += 1;
      return JSON.stringify(contextContributions(x, explainCandidate(x))) === JSON.stringify(contextContributions(y, explainCandidate(y)));
    }),
    { numRuns: 300 },
  );
  t.true(compared > 100, `compared ${compared} pairs`);
});

const ANCHORS = ['Sign in', 'Verify your email', 'Click here', 'Reset password', 'View in browser', ''];
const path = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9]{12,32}$/).map((t) => `/auth/magic?token=${t}`),
  fc.stringMatching(/^[a-z]{3,10}$/).map((p) => `/${p}`),
  fc.tuple(fc.constantFrom('verify-email', 'login', 'reset-password', 'confirm', 'sign-in', 'blog', 'settings'), fc.stringMatching(/^[A-Za-z0-9]{8,20}$/)).map(([p, t]) => `/${p}/${t}`),
  fc.stringMatching(/^[A-Za-z0-9]{8,20}$/).map((t) => `/email/unsubscribe/${t}`),
  fc.stringMatching(/^[A-Za-z0-9]{8,20}$/).map((t) => `/r?url=https%3A%2F%2Fother.example.net%2Fverify%3Ft%3D${t}`),
);

test('context signals: a link’s shown contributions are the same whatever its path and query, on the same host, its anchor printing it or not', (t) => {
  let compared = 0;
  fc.assert(
    fc.property(fc.constantFrom(...ANCHORS), path, path, prose, fc.boolean(), (anchor, p, q, before, button) => {
      const link = (x: string) => `https://app.example.com${x}`;
      const tag = (x: string) => `<a href="${link(x)}"${button ? ' class="button"' : ''}>${anchor === '' ? link(x) : anchor}</a>`;
      const mail = (x: string) => message({ subject: 'Welcome', html: `<p>${before}</p><p>${tag(x)}</p>` });
      const [x, y] = [found(mail(p), 'magic_link', link(p)), found(mail(q), 'magic_link', link(q))];
      if (x === undefined || y === undefined) return true;
      compared += 1;
      return JSON.stringify(contextContributions(x, explainCandidate(x))) === JSON.stringify(contextContributions(y, explainCandidate(y)));
    }),
    { numRuns: 300 },
  );
  t.true(compared > 50, `compared ${compared} pairs`);
});

test('context signals: bias, base and the shape are never shown, and the list keeps its order', (t) => {
  const top = extract(message({ subject: 'Your sign-in code', text: 'Your sign-in code is:\n\n739204\n' })).top!;
  const full = explainCandidate(top);
  const shown = contextContributions(top, full);
  t.true(full.some((c) => c.signal === 'shape') && full.some((c) => c.signal === 'bias'));
  t.deepEqual(shown.map((c) => c.signal), full.map((c) => c.signal).filter((s) => !['bias', 'base', 'shape'].includes(s)));
});
