import test from 'ava';
import fc from 'fast-check';
import { CODE_WORD_PATTERN, codeWordHits } from '../../src/extraction/code-word-hits.js';
import { DECOY_WORDS, compileWords } from '../../src/extraction/lexicon.js';
import { firstAfter, lastBefore } from '../../src/extraction/codes.js';
import { firstAtOrAfter, viewMessage, type Hits } from '../../src/extraction/segments.js';
import { message } from './helpers.js';

test('keyword hits: decoy hits of a window are those of one full scan that start in it', (t) => {
  const full = compileWords(DECOY_WORDS);
  const piece = fc.constantFrom('order', 'no.', 'po box', 'ref', 'reference', 'tel', 'Phone', 'заказ', '注文', 'x', ' ', '\n', '.', '-', ':', '#', '7', 'é');
  fc.assert(
    fc.property(fc.array(piece, { minLength: 1, maxLength: 30 }), fc.nat(), fc.nat(), (pieces, a, b) => {
      const text = `x${pieces.join('')}`;
      const segment = viewMessage(message({ text })).segments.find((s) => s.source === 'text');
      if (segment === undefined) return;
      const [from, to] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y) as [number, number];
      const expected = [...text.matchAll(full)].map((m) => [m.index, m.index + m[0].length]).filter(([s]) => (s ?? 0) >= from && (s ?? 0) < to);
      t.deepEqual(segment.decoyWords(from, to), expected);
    }),
  );
});

test('keyword hits: code-word hits, asked for piece by piece, are those of the combined pattern scan', (t) => {
  // Listed words, compounds, case variants (including letters that fold into the class: U+1C82
  // folds to Cyrillic О), words of scripts without spaces, and the characters between them.
  const piece = fc.constantFrom(
    'code', 'Codes', 'CODE', 'pin', 'pinned', 'one-time password', 'one time\u00a0password', 'security\ncode', 'mã xác minh',
    'doğrulamakodu', 'Zurücksetzungscode', 'abcкод', 'аб\u1c82КОД', 'xkod', 'kodunuz', 'Kode', 'コード', '验证码', 'קוד', 'رمز',
    'x', 'ab', 'é', 'ß', ' ', '\u00a0', '\n', '-', '.', '7', '#', '\u0130',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 25 }), fc.array(fc.nat(), { maxLength: 4 }), (pieces, asks) => {
      const text = pieces.join('');
      const full = [...text.matchAll(CODE_WORD_PATTERN)].map((m) => [m.index, m.index + m[0].length] as const);
      const hits = codeWordHits(text);
      for (const until of asks.map((a) => a % (text.length + 2)).sort((a, b) => a - b)) {
        const got = hits(until);
        t.deepEqual(got, full.slice(0, got.length));
        t.true(got.length === full.length || (got[got.length - 1]?.[0] ?? 0) >= until);
      }
      t.deepEqual(hits(Number.POSITIVE_INFINITY), full);
    }),
  );
});

test('keyword hits: the hit before or after a code is found by search as a walk through all hits finds it', (t) => {
  // Hits of one scan: ascending, never overlapping.
  const hits = fc.array(fc.tuple(fc.nat(5), fc.integer({ min: 1, max: 6 })), { maxLength: 20 }).map((gaps) => {
    const out: [number, number][] = [];
    let at = 0;
    for (const [gap, length] of gaps) {
      out.push([at + gap, at + gap + length]);
      at += gap + length;
    }
    return out;
  });
  const walkBefore = (list: Hits, pos: number, from: number): number | undefined => {
    let found: number | undefined;
    for (const [s, e] of list) {
      if (s >= pos) break;
      if (e <= pos && s >= from) found = e;
    }
    return found;
  };
  const walkAfter = (list: Hits, pos: number, to: number): number | undefined => list.find(([s]) => s >= pos && s < to)?.[0];
  fc.assert(
    fc.property(hits, fc.nat(80), fc.nat(80), fc.nat(80), (list, a, b, c) => {
      t.is(firstAtOrAfter(list, a), list.findIndex(([s]) => s >= a) < 0 ? list.length : list.findIndex(([s]) => s >= a));
      t.is(lastBefore(list, a, Math.min(a, b)), walkBefore(list, a, Math.min(a, b)));
      t.is(firstAfter(list, a, a + c), walkAfter(list, a, a + c));
    }),
    { numRuns: 3000 },
  );
});
