import test from 'ava';
import fc from 'fast-check';
import { maskLinksAndAddresses } from '../../src/extraction/mask.js';

// What code finding blanked before: a left-to-right replace with this pattern. The URL branch is
// tried first at each position; an address starts only where a run of its characters starts.
const PATTERN = /https?:\/\/[^\s<>"]+|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const reference = (t: string): string => t.replace(PATTERN, (m) => ' '.repeat(m.length));

test('mask: URLs and addresses are blanked exactly as the replace pattern blanks them', (t) => {
  const piece = fc.constantFrom(
    'http://', 'https://', 'http:/', 'HTTP://', 'http', 'a', 'Z9', 'x.y', 'user+tag', 'b_c', '@', '@@', '.', '..', '-', '+', '_', ':',
    '/', '?q=1&r=2', ' ', '\n', '\t', '<', '>', '"', "'", 'com', 'example.com', 'é', '認証', '#', '123456', '+d@e.f', 'a@b.c',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join('');
      t.is(maskLinksAndAddresses(text), reference(text), JSON.stringify(text));
    }),
    { numRuns: 3000 },
  );
});

test('mask: an address run on from a previous match does not start another', (t) => {
  // After "a@b.c" the run goes on ("+d"), so the pattern's lookbehind refuses every start before
  // the next '@': "d@e.f" is not an address there.
  for (const text of ['a@b.c+d@e.f', 'x@y.com.-z@w.org', 'mail a@b.c+d@e.f now', 'http://a.b/c@d.e f@g.h', 'a@b.c@d.e', 'u@v.w x@y.z']) {
    t.is(maskLinksAndAddresses(text), reference(text), text);
  }
});

test('mask: text without a URL or an address comes back as it is', (t) => {
  for (const text of ['', 'Your code is 482913', 'http:/ nope', 'user@ localhost', 'a@b', '@example.com']) t.is(maskLinksAndAddresses(text), text);
});

test('mask: long runs of address characters around an @ are blanked as the pattern blanks them', (t) => {
  const text = `${'a.'.repeat(50_000)} @ ${'b'.repeat(50_000)}@x.io`;
  t.is(maskLinksAndAddresses(text), reference(text));
});
