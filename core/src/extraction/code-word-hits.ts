import { CODE_COMPOUND, CODE_LETTER, CODE_SUFFIX_AT_END, CODE_WORDS, wordSources } from './lexicon.js';

const { bounded = '(?!)', free = '(?!)' } = wordSources(CODE_WORDS);

/**
 * The code-word pattern: a listed word at a word start, a listed word of a script without spaces,
 * or a compound noun ending in a code suffix (tried in that order at each position). Its hits,
 * one left-to-right scan resuming where each hit ends, are what `codeWordHits` finds.
 */
export const CODE_WORD_PATTERN = new RegExp(`${bounded}|${free}|${CODE_COMPOUND}`, 'gi');

const BOUNDED = new RegExp(bounded, 'gi');
const FREE = new RegExp(free, 'gi');
const SUFFIX = new RegExp(CODE_SUFFIX_AT_END, 'gi');
const COMPOUND = new RegExp(CODE_COMPOUND, 'iy');
const LETTER = new RegExp(CODE_LETTER, 'i');

/**
 * The next match of one alternative at or after a position. Positions asked about never go back,
 * so a match found from an earlier position stays the next one until a later position passes it.
 */
class Next {
  start = -1;
  end = -1;

  constructor(private readonly find: (from: number) => void) {}

  at(from: number): number {
    if (this.start < from) this.find(from);
    return this.start;
  }

  set(start: number, end: number): void {
    this.start = start;
    this.end = end;
  }
}

const NONE = Number.POSITIVE_INFINITY;

const nextOf = (re: RegExp, text: string): Next => {
  const next: Next = new Next((from) => {
    re.lastIndex = from;
    const m = re.exec(text);
    if (m === null) next.set(NONE, NONE);
    else next.set(m.index, m.index + m[0].length);
  });
  return next;
};

/**
 * The next compound hit: a compound hit spans a whole word ending in a suffix, so the suffix is
 * searched for (a literal search, cheap), and the compound pattern is tried only where that word
 * starts. Tried from every letter instead, the compound alternative was about half the scan.
 */
const nextCompound = (text: string): Next => {
  const next: Next = new Next((from) => {
    SUFFIX.lastIndex = from;
    for (let m = SUFFIX.exec(text); m !== null; m = SUFFIX.exec(text)) {
      let start = m.index;
      while (start > 0 && LETTER.test(text[start - 1] ?? '')) start -= 1;
      if (start < from) continue;
      COMPOUND.lastIndex = start;
      const c = COMPOUND.exec(text);
      if (c !== null) return next.set(start, start + c[0].length);
    }
    next.set(NONE, NONE);
  });
  return next;
};

/**
 * Code-word hits of `text`, found only as far as queries have needed (see Segment.codeWords):
 * exactly the hits of CODE_WORD_PATTERN's left-to-right scan. Each of its three alternatives is
 * searched on its own, and the hit at each step is the leftmost of their next matches, the
 * earlier alternative winning a tie, as in the combined pattern. The combined pattern cost about
 * twice the sum of the three searches: no part of it could skip ahead.
 */
export const codeWordHits = (text: string): ((until: number) => readonly (readonly [number, number])[]) => {
  const found: (readonly [number, number])[] = [];
  const parts = [nextOf(BOUNDED, text), nextOf(FREE, text), nextCompound(text)];
  let resume = 0;
  let done = false;
  return (until) => {
    while (!done && (found.length === 0 || (found[found.length - 1]?.[0] ?? 0) < until)) {
      let best: Next | undefined;
      for (const part of parts) if (part.at(resume) < (best?.start ?? NONE)) best = part;
      if (best === undefined) done = true;
      else {
        found.push([best.start, best.end]);
        resume = best.end;
      }
    }
    return found;
  };
};
