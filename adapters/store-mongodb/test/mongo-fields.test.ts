import test from 'ava';
import fc from 'fast-check';
import { decodeDocument, encodeFields, rankOf } from '../src/mongo-fields.js';

test('mongodb fields: a stored document keeps its fields, the given version and a rank per non-null field', (t) => {
  const stored = encodeFields({ id: 'd1', version: 9, s: 'x', n: 1, b: false, z: null, o: { a: 1 }, l: [1] } as never, 1);
  t.deepEqual(stored, {
    s: 'x',
    n: 1,
    b: false,
    z: null,
    o: { a: 1 },
    l: [1],
    version: 1,
    _rank: { s: 3, n: 2, b: 1, o: 4, l: 4 },
  });
  t.false('id' in stored);
});

test('mongodb fields: undefined top-level fields are left out, as JSON leaves them out', (t) => {
  t.deepEqual(encodeFields({ id: 'd1', gone: undefined } as never, 2), { version: 2, _rank: {} });
});

test('mongodb fields: a field named __proto__ is stored as a field, not as a prototype', (t) => {
  const doc = JSON.parse('{"id":"d1","__proto__":"x"}') as { id: string };
  const stored = encodeFields(doc, 1);
  t.true(Object.hasOwn(stored, '__proto__'));
  t.is(Object.getPrototypeOf(stored), Object.prototype);
  t.true(Object.hasOwn(stored._rank as object, '__proto__'));
});

test('mongodb fields: the fields the store uses itself are refused', (t) => {
  t.throws(() => encodeFields({ id: 'd1', _id: 'other' } as never, 1), { instanceOf: TypeError });
  t.throws(() => encodeFields({ id: 'd1', _rank: {} } as never, 1), { instanceOf: TypeError });
});

test('mongodb fields: a read document has id and version back and no shadow ranks', (t) => {
  const raw = { _id: 'd1', version: 4, a: 'x', _rank: { a: 3 } };
  t.deepEqual(decodeDocument(raw), { id: 'd1', a: 'x', version: 4 });
});

// The port's order of scalars: null < booleans < numbers < strings, then by value.
const portRank = (v: unknown): number => (v === null ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : 3);

test('mongodb fields: any two scalars of different types are ordered by their ranks as the port orders them', (t) => {
  const scalar = fc.oneof(fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string());
  fc.assert(
    fc.property(scalar, scalar, (a, b) => {
      fc.pre(portRank(a) !== portRank(b));
      // Null and missing have no rank entry, which MongoDB sorts as null: below every number.
      const [ra, rb] = [rankOf(a) ?? -Infinity, rankOf(b) ?? -Infinity];
      return Math.sign(ra - rb) === Math.sign(portRank(a) - portRank(b));
    }),
  );
  t.pass();
});
