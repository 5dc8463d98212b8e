import test from 'ava';
import { isTrimmed } from '../../src/extraction/whitespace.js';

test('whitespace: isTrimmed holds for exactly the code units String.prototype.trim removes', (t) => {
  const differ: number[] = [];
  for (let c = 0; c < 0x10000; c += 1) if (isTrimmed(c) !== (String.fromCharCode(c).trim().length === 0)) differ.push(c);
  t.deepEqual(differ, []);
});
