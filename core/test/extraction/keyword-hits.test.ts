import test from 'ava';
import fc from 'fast-check';
import { DECOY_WORDS, compileWords } from '../../src/extraction/lexicon.js';
import { breaksDecoys, viewMessage } from '../../src/extraction/segments.js';
import { message } from './helpers.js';

test('keyword hits: no decoy word holds a character that decoy hits are cut at', (t) => {
  const held = DECOY_WORDS.flatMap((w) => [...w].filter((c) => breaksDecoys(c.charCodeAt(0))));
  t.deepEqual(held, []);
});

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
