import test from 'ava';
import fc from 'fast-check';
import { siteOf, tokenStrength, urlFeatures } from '../../src/extraction/url-features.js';

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
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return new Set(value).size > 4 ? 1 : 0;
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

test('tokenStrength: a value the rule on the value without separators rates is rated the same; others are at most weak tokens', (t) => {
  fc.assert(
    fc.property(tokenValue, fc.constantFrom('', 'token', 'id', 'oobCode'), (value, name) => {
      const old = strengthByReplace(value, name);
      const now = tokenStrength(value, name);
      return old > 0 ? now === old : now <= 1;
    }),
    { numRuns: 5000 },
  );
  for (const value of ['', 'abcdef0123456789abcd', 'ABCDEF0123456789ABCD', 'abcdef0123456789abcg', 'a-b-c-d-e-f-0-1-2-3-4-5-6-7-8-9', 'eyJhbGciOi.eyJzdWIiOi.SflKxwRJSM']) {
    t.is(tokenStrength(value), strengthByReplace(value), value);
  }
});

test('tokenStrength: random-looking values are weak tokens whatever their parameter is called', (t) => {
  for (const value of ['834709215563', '48230019475520193', 'KQXZVBNMTRWPLHGD', 'mxkqzrtvbnwplhgd', 'aQzXwErTyUiOp']) {
    t.is(tokenStrength(value, 'p'), 1, value);
  }
  for (const value of ['20240315', '1234', 'passwordresetlink', 'VERIFICATIONEMAIL', 'JavaScript', 'hello world again']) {
    t.is(tokenStrength(value, 'p'), 0, value);
  }
});

test('tokenStrength: a UUID is a weak token, and a placeholder UUID of repeated digits is none', (t) => {
  t.is(tokenStrength('5b39e145-2c1d-4e8f-9a7b-3c6d2e1f0a9b'), 1);
  t.is(tokenStrength('00000000-0000-0000-0000-000000000000'), 0);
});

test('property: a random value in a query parameter of any name makes the link a token link', (t) => {
  const name = fc.stringMatching(/^[a-z]{1,8}$/).filter((n) => !/^(email|lang|locale|hl|theme|source|ref|medium|campaign|name|type|expires?|expire|mode|scope|next|continue|state|service|origin)$/.test(n));
  const value = fc.oneof(fc.stringMatching(/^[0-9]{12,24}$/), fc.stringMatching(/^[A-Za-z0-9]{16,40}$/).filter((v) => /\d/.test(v) && /[A-Za-z]/.test(v)));
  fc.assert(
    fc.property(name, value, (n, v) => urlFeatures(new URL(`https://app.example.com/a/b?${n}=${v}`)).token >= 1),
    { numRuns: 2000 },
  );
  t.pass();
});

test('urlFeatures: a fragment of name=value pairs is read as a query, so its token counts', (t) => {
  t.is(urlFeatures(new URL('https://app.example.com/welcome#access_token=Qm9vA7c2ZkL1xYp3Rt8wNe4H&type=signup')).token, 2);
  t.is(urlFeatures(new URL('https://app.example.com/#/reset/9d2f4e1a7b3c8d5e6f708192a3b4c5d6')).token, 2);
});
