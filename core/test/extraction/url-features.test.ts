import test from 'ava';
import fc from 'fast-check';
import { siteOf, tokenStrength } from '../../src/extraction/url-features.js';

// The rule as first written, by label arrays: the index-based siteOf must give the same answer.
const siteBySplit = (host: string): string => {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  const n = labels.length;
  const zoned = n >= 3 && (labels[n - 1] ?? '').length === 2 && /^(co|com|org|net|ac|gov|edu|ne|or)$/.test(labels[n - 2] ?? '');
  return labels.slice(zoned ? -3 : -2).join('.');
};

const label = fc.oneof(fc.constantFrom('', 'co', 'com', 'org', 'ne', 'or', 'uk', 'jp', 'EXAMPLE', 'mail', 'a'), fc.stringMatching(/^[a-zA-Z0-9-]{0,6}$/));

test('siteOf: the registrable domain is that of splitting the host into labels, for any host', (t) => {
  fc.assert(
    fc.property(fc.array(label, { minLength: 1, maxLength: 6 }), fc.boolean(), (labels, trailingDot) => {
      const host = `${labels.join('.')}${trailingDot ? '.' : ''}`;
      return siteOf(host) === siteBySplit(host);
    }),
    { numRuns: 2000 },
  );
  for (const host of ['', '.', '..', '.com', 'example.com', 'mail.example.co.uk', 'co.uk', 'a.b.co.jp.', 'x..y', 'WWW.Example.COM.']) {
    t.is(siteOf(host), siteBySplit(host), host);
  }
});

// The rule as first written, on the value with its separators removed: the one-pass tokenStrength must agree.
const strengthByReplace = (value: string, name = ''): 0 | 1 | 2 => {
  if (/^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/.test(value)) return 2;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return 1;
  const core = value.replace(/[-_.~:]/g, '');
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(core)).length;
  if (core.length >= 16 && (classes >= 2 || /^[0-9a-f]{20,}$/i.test(core))) return 2;
  if (core.length >= 4 && /(token|code|key|secret|sig|signature|hash|otp|nonce|ticket|oobcode|verifier|auth)/i.test(name)) return core.length >= 12 && classes >= 2 ? 2 : 1;
  return core.length >= 6 && classes >= 2 && /\d/.test(core) ? 1 : 0;
};

const anyChar = fc.constantFrom(...'abcfgzABCFGZ0189-_.~:%é€K\u212a'.split(''));
// Hex digits and separators, and one-class values near the hex edge, so long hex-only values come up.
const hexChar = fc.constantFrom(...'09afAF-:'.split(''));
const oneClass = fc.constantFrom('afg-', 'AFG:', '09_');
const tokenValue = fc
  .oneof(
    fc.array(anyChar, { maxLength: 40 }),
    fc.array(hexChar, { maxLength: 40 }),
    oneClass.chain((chars) => fc.array(fc.constantFrom(...chars.split('')), { minLength: 14, maxLength: 26 })),
  )
  .map((cs) => cs.join(''));

test('tokenStrength: a value is rated as by the rule on the value without separators, for any value', (t) => {
  fc.assert(
    fc.property(tokenValue, fc.constantFrom('', 'token', 'id', 'oobCode'), (value, name) => {
      return tokenStrength(value, name) === strengthByReplace(value, name);
    }),
    { numRuns: 5000 },
  );
  for (const value of ['', 'abcdef0123456789abcd', 'ABCDEF0123456789ABCD', 'abcdef0123456789abcg', 'a-b-c-d-e-f-0-1-2-3-4-5-6-7-8-9', 'eyJhbGciOi.eyJzdWIiOi.SflKxwRJSM']) {
    t.is(tokenStrength(value), strengthByReplace(value), value);
  }
});
