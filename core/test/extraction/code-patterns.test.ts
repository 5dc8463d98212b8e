import test from 'ava';
import fc from 'fast-check';
import { CELLS_RE, Covered, SPLIT_RE, aloneOnLine } from '../../src/extraction/codes.js';
import { heldPieces, holds } from '../../src/extraction/extract.js';

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

test('code patterns: a code is alone on its line exactly when its whole line, trimmed and less one final stop, is the code', (t) => {
  const piece = fc.constantFrom('482913', 'AB-12', ' ', '\t', '\u00a0', '\u3000', '\u2028', '.', ':', '..', 'x', '\n', '\n\n');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), fc.array(piece, { maxLength: 8 }), fc.constantFrom('482913', 'AB-12', 'AB\u201012'), (before, after, code) => {
      const text = `${before.join('')}${code}${after.join('')}`;
      const start = before.join('').length;
      const end = start + code.length;
      // The line as it was cut out before: from the newline before the code to the one after it.
      const ls = text.lastIndexOf('\n', start - 1) + 1;
      const nl = text.indexOf('\n', end);
      const line = text.slice(ls, nl < 0 ? text.length : nl).trim().replace(/[.:]$/, '');
      const printed = code.replace('\u2010', '-');
      t.is(aloneOnLine(text, start, end, printed), line === printed ? ls : -1, JSON.stringify(text));
    }),
    { numRuns: 3000 },
  );
});

test('code patterns: covered spans hold a range exactly when one added span holds it', (t) => {
  const span = fc.tuple(fc.nat(40), fc.integer({ min: 1, max: 12 })).map(([a, n]) => [a, a + n] as const);
  fc.assert(
    fc.property(fc.array(span, { maxLength: 8 }), fc.array(span, { maxLength: 10 }), (added, asked) => {
      const covered = new Covered(60);
      for (const [a, b] of added) covered.add(a, Math.min(b, 60));
      for (const [s, e] of asked) {
        const expected = added.some(([a, b]) => s >= a && e <= Math.min(b, 60));
        t.is(covered.holds(s, e), expected, JSON.stringify([added, s, e]));
      }
    }),
    { numRuns: 3000 },
  );
});

test('code patterns: a link carries a code exactly when the code is one of its held pieces', (t) => {
  const urlPiece = fc.constantFrom('https://x.io', '/', '=', '&', '#', '?', 'code', '482913', '48', '2913', 'AB-12', '-', '.', '==', '//');
  const value = fc.constantFrom('482913', 'AB-12', 'code', '2913', '48');
  fc.assert(
    fc.property(fc.array(fc.array(urlPiece, { maxLength: 10 }).map((p) => p.join('')), { maxLength: 4 }), value, (urls, v) => {
      const pieces = new Set<string>();
      for (const url of urls) heldPieces(url, pieces);
      t.is(pieces.has(v), urls.some((url) => holds(url, v)), JSON.stringify([urls, v]));
    }),
    { numRuns: 5000 },
  );
});
