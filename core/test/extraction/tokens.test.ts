import test from 'ava';
import fc from 'fast-check';
import { LONGEST_CODE_TOKEN, shapeOf } from '../../src/extraction/code-shape.js';
import { codeTokens } from '../../src/extraction/tokens.js';

/** The definition codeTokens implements, read off directly: maximal runs, then the plain-word rule. */
const byDefinition = (text: string): [number, number][] => {
  const out: [number, number][] = [];
  for (const m of text.matchAll(/[0-9A-Za-z]+(?:[-\u2010\u2011][0-9A-Za-z]+)*/g)) {
    const token = m[0];
    const digits = token.replace(/[^0-9]/g, '').length;
    const upper = token.replace(/[^A-Z]/g, '').length;
    const lower = token.replace(/[^a-z]/g, '').length;
    if (token.length >= 4 && token.length <= LONGEST_CODE_TOKEN && !(digits === 0 && lower > 0 && upper < 3)) out.push([m.index, m.index + token.length]);
  }
  return out;
};

const tokensOf = (text: string): [number, number][] => {
  const out: [number, number][] = [];
  codeTokens(text, (start, end) => out.push([start, end]));
  return out;
};

test('codeTokens finds the tokens its definition names, in generated text', (t) => {
  const char = fc.constantFrom(...'aZ09-\u2010\u2011 .xQ7b\n'.split(''));
  fc.assert(
    fc.property(fc.array(char, { maxLength: 90 }), (chars) => {
      const text = chars.join('');
      t.deepEqual(tokensOf(text), byDefinition(text));
    }),
    { numRuns: 5000 },
  );
});

test('codeTokens reads a settled token to its end: long capital runs, joining dashes, a plain word after', (t) => {
  const longest = `A1${'x'.repeat(LONGEST_CODE_TOKEN - 2)}`;
  const text = `1${'X'.repeat(78)}\nABCD-1234-xy--Z9 ab-CD-EF‐G9 AB-cd word-A1 Hello World ABc1- ${longest} ${longest}y 9-${'X'.repeat(LONGEST_CODE_TOKEN + 8)}-Q`;
  t.deepEqual(tokensOf(text), byDefinition(text));
  t.deepEqual(
    tokensOf(text).map(([s, e]) => text.slice(s, e)),
    ['ABCD-1234-xy', 'ab-CD-EF‐G9', 'word-A1', 'ABc1', longest],
  );
});

test('no code shape admits a token longer than LONGEST_CODE_TOKEN, so codeTokens may pass them by', (t) => {
  const token = fc.array(fc.constantFrom(...'0123456789ABCXYZabcxyz-'.split('')), { minLength: LONGEST_CODE_TOKEN + 1, maxLength: LONGEST_CODE_TOKEN + 30 })
    .map((chars) => chars.join('').replace(/-{2,}/g, '-').replace(/^-|-$/g, '0'))
    .filter((s) => s.length > LONGEST_CODE_TOKEN);
  fc.assert(fc.property(token, (s) => t.is(shapeOf(s), undefined)), { numRuns: 5000 });
  // The longest shapes of each kind stay within the bound.
  t.truthy(shapeOf('1-2-3-4-5-6-7-8-9-0'));
  t.truthy(shapeOf('ABC12-DEF34-GHJ56-KLM78'));
});
