import test from 'ava';
import fc from 'fast-check';
import { CELLS_RE, SPLIT_RE } from '../../src/extraction/codes.js';

// The split-code and one-digit-per-cell patterns test the character before a code after reading
// its first digit (codes.ts). These are the patterns as first written, with the test in front:
// both must find the same matches.
const SPLIT_BEFORE = /(?<![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff+])(?:\d{3}(?:[ \u00a0]\d{3}){1,2}|\d{4}[ \u00a0]\d{4}|\d{2}(?:[ \u00a0]\d{2}){2,3})(?![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff]|[.,:]\d)/g;
const CELLS_BEFORE = /(?<![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff+])\d(?:[ \t\u00a0]{1,3}\d){3,9}(?![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff]|[.,:]\d)/g;

const matches = (re: RegExp, text: string): string[] => [...text.matchAll(re)].map((m) => `${m.index}:${m[0]}`);

test('code patterns: split codes and digit cells match as the patterns with the test in front did', (t) => {
  const piece = fc.constantFrom('1', '23', '456', '7890', ' ', '\u00a0', '\t', '  ', '+', 'a', 'é', 'д', '.', ',', ':', '\n', '-');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
      const text = pieces.join('');
      t.deepEqual(matches(SPLIT_RE, text), matches(SPLIT_BEFORE, text), JSON.stringify(text));
      t.deepEqual(matches(CELLS_RE, text), matches(CELLS_BEFORE, text), JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
});
