import test from 'ava';
import fc from 'fast-check';
import { MessageCollector } from '../src/message-collector.js';

/** The rule stated plainly: the longest line, without its CR LF (or bare LF), over the whole message. */
const longestLine = (data: Buffer): number =>
  Math.max(0, ...data.toString('latin1').split('\n').map((line, i, all) => (i < all.length - 1 ? line.replace(/\r$/, '') : line).length));

const chunked = (data: Buffer, cuts: readonly number[]): Buffer[] => {
  const points = [...new Set(cuts.map((cut) => cut % (data.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of [...points, data.length]) {
    chunks.push(data.subarray(from, point));
    from = point;
  }
  return chunks;
};

const lineBytes = fc.constantFrom(...'ab\r\n\n.'.split('')).map((c) => c.charCodeAt(0));

test('message-collector: the line rule does not depend on how the stream was chunked', (t) => {
  fc.assert(
    fc.property(fc.array(lineBytes, { maxLength: 400 }), fc.array(fc.nat(), { maxLength: 12 }), fc.integer({ min: 1, max: 40 }), (bytes, cuts, limit) => {
      const data = Buffer.from(bytes);
      const collector = new MessageCollector(1_000_000, limit);
      for (const chunk of chunked(data, cuts)) collector.push(chunk);
      const expected = longestLine(data) > limit ? 'line_too_long' : 'ok';
      return collector.verdict() === expected && (expected !== 'ok' || collector.bytes().equals(data));
    }),
    { numRuns: 2_000 },
  );
  t.pass();
});

test('message-collector: a message over the cap is refused and its bytes released, however it was chunked', (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 300 }), fc.array(fc.nat(), { maxLength: 8 }), (size, cuts) => {
      const collector = new MessageCollector(150, 1_000);
      for (const chunk of chunked(Buffer.alloc(size, 0x61), cuts)) collector.push(chunk);
      const verdict = collector.verdict();
      return collector.size === size && verdict === (size > 150 ? 'too_big' : 'ok') && (verdict === 'ok' || collector.bytes().length === 0);
    }),
  );
  t.pass();
});
