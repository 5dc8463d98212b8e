import test from 'ava';
import fc from 'fast-check';
import { DedupeWindow } from '../src/index.js';

test('dedupe window: remembers at most its size and forgets the least recently seen id first', (t) => {
  const window = new DedupeWindow(2);
  window.remember('a');
  window.remember('b');
  t.true(window.seen('a'), 'seeing a makes b the oldest');
  window.remember('c');
  t.false(window.seen('b'));
  t.true(window.seen('a'));
  t.true(window.seen('c'));
  t.is(window.count, 2);
});

test('dedupe window: a size of 0 remembers nothing, and a size that is not a whole number is refused', (t) => {
  const window = new DedupeWindow(0);
  window.remember('a');
  t.false(window.seen('a'));
  t.throws(() => new DedupeWindow(-1), { instanceOf: RangeError });
  t.throws(() => new DedupeWindow(1.5), { instanceOf: RangeError });
});

test('dedupe window: never holds more than its size, and always holds the ids remembered last', (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.string({ maxLength: 3 }), { maxLength: 200 }), (size, ids) => {
      const window = new DedupeWindow(size);
      for (const id of ids) window.remember(id);
      const latest = [...new Set([...ids].reverse())].slice(0, size);
      return window.count === Math.min(size, new Set(ids).size) && latest.every((id) => window.seen(id));
    }),
  );
  t.pass();
});
