import { compileWords } from './lexicon.js';
import { IGNORE_WORDS, NEGATIVE_ROLE_WORDS, POSITIVE_ROLE_WORDS } from './link-roles.js';

/** What the words around a link say it does: lead to the secret's use, or away from it. */
export type LinkRole = 'positive' | 'negative';

// Both lists as one pattern, so where a word of one role holds a word of the other, the longer
// one is the hit and the scan resumes after it (see link-roles.ts).
const ANY_ROLE = compileWords([...POSITIVE_ROLE_WORDS, ...NEGATIVE_ROLE_WORDS], 'gi');
// A negative word at one position only: tells which list a hit came from.
const NEGATIVE_AT = compileWords(NEGATIVE_ROLE_WORDS, 'iy');
const IGNORE = compileWords(IGNORE_WORDS, 'gi');

/** Where the last word asking to ignore the mail ends in `text`; -1 without one. */
const lastIgnoreEnd = (text: string): number => {
  let end = -1;
  IGNORE.lastIndex = 0;
  for (let m = IGNORE.exec(text); m !== null; m = IGNORE.exec(text)) end = m.index + m[0].length;
  return end;
};

// Emphasis marks of plain-text mail ("did *not* ask", "_not_ you"): the words are read without them.
const EMPHASIS = /[*_]+/g;
const plainOf = (text: string): string => (text.includes('*') || text.includes('_') ? text.replace(EMPHASIS, '') : text);

/**
 * The role named by the last role word of `text` (the one nearest a link that follows it), if
 * any: "If this wasn't you, click here" names a negative role; "Confirm your address" a positive one.
 * A negative word before a word asking to ignore the mail is a disclaimer ("If you didn't request
 * this, ignore this email"): it names no role, so the button after it is not taken for a cancel link.
 */
export const roleIn = (written: string): LinkRole | undefined => {
  if (written === '') return undefined;
  const text = plainOf(written);
  let last: LinkRole | undefined;
  let ignoreEnd: number | undefined;
  ANY_ROLE.lastIndex = 0;
  for (let m = ANY_ROLE.exec(text); m !== null; m = ANY_ROLE.exec(text)) {
    NEGATIVE_AT.lastIndex = m.index;
    const negative = NEGATIVE_AT.exec(text);
    if (negative === null || negative[0].length !== m[0].length) last = 'positive';
    else if (m.index >= (ignoreEnd ??= lastIgnoreEnd(text))) last = 'negative';
    if (m[0].length === 0) ANY_ROLE.lastIndex += 1;
  }
  return last;
};

// A sentence ends at one of these followed by a blank, or at a full-width stop.
const SENTENCE_END = /[.!?](?=\s)|[。！？]/g;
// A line shorter than this ("", ":", "→") says nothing alone: the line before it is read too.
const SHORT_LINE = 3;
// The rest of a line after its last sentence end is the lead when it is at least this long.
const SHORT_SENTENCE = 12;
const LEAD_CHARS = 140;

/**
 * The words that introduce a link: the sentence before it on its line ("If this wasn't you, ",
 * "Confirm your address:"), or the line above when the link starts its line.
 */
export const leadOf = (context: string): string => {
  let end = context.length;
  while (end > 0 && /\s/.test(context.charAt(end - 1))) end -= 1;
  let start = context.lastIndexOf('\n', end - 1) + 1;
  if (end - start < SHORT_LINE && start > 0) start = context.lastIndexOf('\n', start - 2) + 1;
  const line = context.slice(start, end);
  let cut = 0;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(line); m !== null; m = SENTENCE_END.exec(line)) {
    if (line.length - (m.index + 1) >= SHORT_SENTENCE) cut = m.index + 1;
  }
  const lead = line.slice(cut).trim();
  return lead.length > LEAD_CHARS ? lead.slice(-LEAD_CHARS) : lead;
};
