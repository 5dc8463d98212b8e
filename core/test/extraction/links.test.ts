import test from 'ava';
import fc from 'fast-check';
import { oneLine } from '../../src/extraction/links.js';

// Every character /\s/ matches, a few that it does not, and letters.
const spaceChar = fc.constantFrom(' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff');
const otherChar = fc.constantFrom('a', 'Z', '1', '.', '\u200b', '\u180e', '\u00ad', 'é', '한');
const text = fc.array(fc.oneof(spaceChar, otherChar), { maxLength: 30 }).map((cs) => cs.join(''));

test('oneLine: a text is what collapsing its white-space runs with /\\s+/ and trimming gives, for any text', (t) => {
  fc.assert(
    fc.property(text, (s) => oneLine(s) === s.replace(/\s+/g, ' ').trim()),
    { numRuns: 5000 },
  );
  for (const s of ['', ' ', '  ', 'a', ' a ', 'a b', 'a  b', 'a\nb', '\n a \t b \r\n', 'a \u00a0b']) {
    t.is(oneLine(s), s.replace(/\s+/g, ' ').trim(), JSON.stringify(s));
  }
});
