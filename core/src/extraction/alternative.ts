// "Or use this link to sign in:", "Oder gib diesen Code ein:": a sentence that opens with "or"
// offers a second way in beside one already shown. Which of a code and a link a mail leads with
// is read from it (a preference signal, see model.ts): the way offered as the alternative ranks
// second, and is no less sure for it. General words of many languages, no product's sentences.

/** "Or" and "alternatively", as a sentence opens with them. */
const ALTERNATIVE_WORDS: readonly string[] = [
  'or', 'alternatively', 'oder', 'alternativ', 'ou', 'ou bien', 'o', 'o bien', 'oppure',
  'of', 'eller', 'tai', 'tahi', 'lub', 'albo', 'nebo', 'alebo', 'ali', 'ili', 'или', 'або', 'чи', 'ή', 'veya',
  'ya da', 'yahut', 'vagy', 'sau', 'või', 'vai', 'arba', 'edo', 'eða', 'nó', 'hoặc', 'atau', 'أو', 'או', 'یا',
  'या', 'অথবা', 'বা',
];
// Scripts that do not separate words: the word opens the sentence, whatever follows it.
const UNSPACED_WORDS: readonly string[] = ['หรือ', 'または', 'もしくは', 'あるいは', '또는', '或者', '或是', '或'];

const escape = (w: string): string => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const byLength = (a: string, b: string): number => b.length - a.length;
const ALTERNATIVE = new RegExp(
  `^[\\s\\p{P}]*(?:(?:${[...ALTERNATIVE_WORDS].sort(byLength).map(escape).join('|')})(?=[\\s\\p{P}]|$)|${[...UNSPACED_WORDS].sort(byLength).map(escape).join('|')})`,
  'iu',
);

/** True when `text` opens with "or" (in one of many languages): it offers an alternative way in. */
export const opensAsAlternative = (text: string): boolean => text !== '' && ALTERNATIVE.test(text);
