import test from 'ava';
import fc from 'fast-check';
import { siteOf } from '../../src/extraction/url-features.js';

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
