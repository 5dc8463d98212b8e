import test from 'ava';
import fc from 'fast-check';
import { KINDS, KIND_PATTERNS, hasKindWords, kindsIn } from '../../src/extraction/kind-words.js';
import { KIND_WORDS } from '../../src/extraction/lexicon.js';

const words = KINDS.flatMap((k) => KIND_WORDS[k]);
// Kind words and their case variants, pieces of them, overlapping words ("log in" in "login"),
// and characters that decide word starts.
const piece = fc.oneof(
  fc.constantFrom(...words),
  fc.constantFrom(...words).map((w) => w.toUpperCase()),
  fc.constantFrom(...words).map((w) => w.slice(1)),
  fc.constantFrom('x', 'é', '7', ' ', '\u00a0', '\n', '-', '/', 'signing', 'resetting', 'pre'),
);

test('kind words: the kinds found are exactly those whose own pattern matches', (t) => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const s = pieces.join('');
      t.deepEqual(kindsIn(s), KINDS.filter((_, i) => KIND_PATTERNS[i]?.test(s)));
      t.is(hasKindWords(s), KIND_PATTERNS.some((re) => re.test(s)));
    }),
    { numRuns: 2000 },
  );
});
