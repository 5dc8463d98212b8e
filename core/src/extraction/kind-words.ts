import { KIND_WORDS, compileWords } from './lexicon.js';
import type { LinkKind } from './types.js';

type Kind = keyof typeof KIND_WORDS;

/** The link kinds with words, in the order their votes are cast. */
export const KINDS = Object.keys(KIND_WORDS) as Kind[];

/** Each kind's own pattern, as `classify` has always tested it. */
export const KIND_PATTERNS: readonly RegExp[] = KINDS.map((k) => compileWords(KIND_WORDS[k], 'i'));

// All kinds' words as one word list: a text holds a match of it exactly when it holds a match
// of one kind's pattern, and its one word-start test serves every word (four patterns, or four
// alternatives each with its own word-start test, cost about twice as much per character). One
// pattern object serves both uses: each set of flags is compiled on its own, and the compiled
// code of a word list this long (tens of kilobytes, twice for text with characters past U+00FF)
// is what a message in the parse loop pays to bring back into the processor's caches.
const ANY = compileWords(KINDS.flatMap((k) => KIND_WORDS[k]), 'gi');
// Each kind's pattern, tried at one position only.
const KIND_AT = KINDS.map((k) => compileWords(KIND_WORDS[k], 'iy'));

/** True when `s` holds a word of any link kind. */
export const hasKindWords = (s: string): boolean => {
  ANY.lastIndex = 0;
  return ANY.test(s);
};

/**
 * The kinds whose pattern matches somewhere in `s`, in KINDS order. A kind's pattern matches at
 * a position only where the all-kinds pattern does, so each kind is tried only at those positions
 * (every one of them, not only where the all-kinds scan's hits start, since hits may overlap).
 */
export const kindsIn = (s: string): LinkKind[] => {
  const found = KINDS.map(() => false);
  let left = KINDS.length;
  ANY.lastIndex = 0;
  for (let m = ANY.exec(s); m !== null && left > 0; m = ANY.exec(s)) {
    const at = m.index;
    for (let i = 0; i < KIND_AT.length; i += 1) {
      const re = KIND_AT[i];
      if (found[i] === true || re === undefined) continue;
      re.lastIndex = at;
      if (re.test(s)) {
        found[i] = true;
        left -= 1;
      }
    }
    ANY.lastIndex = at + 1;
  }
  return KINDS.filter((_, i) => found[i] === true);
};
