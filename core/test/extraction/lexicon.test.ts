import test from 'ava';
import fc from 'fast-check';
import { ACTION_WORDS, CODE_WORDS, DECOY_WORDS, KIND_WORDS, NEGATIVE_LINK_WORDS, TIME_WORDS, compileWords } from '../../src/extraction/lexicon.js';

// The word lists are compiled as prefix trees (lexicon.ts). What they must match is what the plain
// alternation of the words, longest first, matches: that is how the patterns were first written,
// and what every rule of the engine was tuned on. The reference below is that alternation.
const WORD_CHAR = 'A-Za-z0-9\\u00c0-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff';
const LETTERLIKE = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;
const alternation = (words: readonly string[], flags: string): RegExp => {
  const escape = (w: string): string => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[\\s\\u00a0]+');
  const sorted = [...new Set(words)].sort((a, b) => b.length - a.length);
  const bounded = sorted.filter((w) => LETTERLIKE.test(w)).map(escape);
  const free = sorted.filter((w) => !LETTERLIKE.test(w)).map(escape);
  const sources = [bounded.length > 0 ? `(?<![${WORD_CHAR}])(?:${bounded.join('|')})` : undefined, free.length > 0 ? `(?:${free.join('|')})` : undefined];
  return new RegExp(sources.filter((s) => s !== undefined).join('|'), flags);
};

const LISTS: Record<string, readonly string[]> = {
  code: CODE_WORDS,
  decoy: DECOY_WORDS,
  time: TIME_WORDS,
  action: ACTION_WORDS,
  negative: NEGATIVE_LINK_WORDS,
  ...KIND_WORDS,
  kinds: Object.values(KIND_WORDS).flat(),
};

const hits = (re: RegExp, text: string): string[] => [...text.matchAll(re)].map((m) => `${m.index}:${m[0]}`);

for (const [name, words] of Object.entries(LISTS)) {
  test(`lexicon: the ${name} words match as their longest-first alternation does`, (t) => {
    // Whole words, their beginnings (a word cut short must not match), words run together, case
    // variants, blanks that may stand for a space, and characters that fold into the letter class
    // or next to it under case-insensitive matching (U+1C82 folds to Cyrillic О, U+212A is the
    // Kelvin sign, dotted and dotless i, sharp s).
    const word = fc.constantFrom(...words);
    const piece = fc.oneof(
      word,
      word.map((w) => w.toUpperCase()),
      fc.tuple(word, fc.nat()).map(([w, n]) => w.slice(0, n % (w.length + 1))),
      word.map((w) => w.replace(/ /g, '\u00a0\n ')),
      fc.constantFrom(' ', '\n', '\u00a0', '-', '.', 'x', 'é', '7', 's', '\u1c82', '\u212a', '\u0130', '\u0131', 'ß', '注'),
    );
    const tree = compileWords(words, 'gi');
    const reference = alternation(words, 'gi');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        t.deepEqual(hits(tree, text), hits(reference, text), JSON.stringify(text));
      }),
      { numRuns: 400 },
    );
    // Every word alone, and with each of its longer relatives after it.
    for (const w of words) t.deepEqual(hits(tree, `${w} ${w.toUpperCase()}s`), hits(reference, `${w} ${w.toUpperCase()}s`), w);
  });
}
