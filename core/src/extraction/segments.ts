import { htmlToView } from './html.js';
import { codeWordHits } from './code-word-hits.js';
import { hasKindWords } from './kind-words.js';
import { DECOY_WORDS, compileWords } from './lexicon.js';
import { roleIn } from './link-role.js';
import type { MessageLink, ParsedMessage } from './types.js';

/** Where in the message a piece of text came from. */
export type Source = 'subject' | 'text' | 'html';

/** Start and end offsets of keyword hits in a segment, in ascending order. */
export type Hits = readonly (readonly [number, number])[];

/**
 * Index of the first hit that starts at or after `pos` (`hits.length` when none), by binary
 * search. Hits of one scan never overlap, so their ends ascend with their starts too. Walking
 * the list from its start for every question made a segment with thousands of hits and codes
 * quadratic (a 99,000-character text of them took most of a second).
 */
export const firstAtOrAfter = (hits: Hits, pos: number): number => {
  let lo = 0;
  let hi = hits.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((hits[mid]?.[0] ?? 0) < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** One readable part of a message, with its keyword hits found as far as they are asked for. */
export interface Segment {
  readonly source: Source;
  readonly text: string;
  /**
   * Code-word hits in order: every hit that starts before `until`, then possibly more (the first
   * one at or after it, when there is one). The hits are those of one full scan of the segment.
   */
  codeWords(until: number): Hits;
  /** Decoy-word hits that start in `[from, to)`, in order: those of one full scan of the segment. */
  decoyWords(from: number, to: number): Hits;
  /** Offset where a footer starts (signature delimiter), or the text length when there is none. */
  readonly footerAt: number;
}

/** The message as the engine reads it. */
export interface MessageView {
  readonly segments: readonly Segment[];
  readonly links: readonly MessageLink[];
  readonly subject: string;
  readonly senderDomain: string;
  /**
   * True when the subject names neither a code nor what a link is for (no code word, no link-kind
   * word, no word asking to confirm, sign in, reset or join, in the mail's language): a notice ("New
   * comment on …", "Reply from …") rather than a mail sent to carry a secret. Worked out on first use.
   */
  readonly subjectSilent: () => boolean;
}

const DECOY_RE = compileWords(DECOY_WORDS);
// "-- " on its own line is the usual signature delimiter; operator footers follow it.
const FOOTER_RE = /\n--[ \t]?\n/;

/**
 * Hits of a pattern that start in `[from, to)`, as one full left-to-right scan of the text finds
 * them. The scan is made once, on the first question, and kept: decoy words are asked about only
 * in the twenty characters before each code, but a search from just before that point ran on to
 * the next hit, most often the end of the segment, for every code.
 */
const windowHits = (re: RegExp, text: string): ((from: number, to: number) => Hits) => {
  let all: (readonly [number, number])[] | undefined;
  return (from, to) => {
    if (all === undefined) {
      all = [];
      for (re.lastIndex = 0; ; ) {
        const m = re.exec(text);
        if (m === null) break;
        re.lastIndex = m.index + m[0].length;
        all.push([m.index, re.lastIndex]);
      }
    }
    const found: (readonly [number, number])[] = [];
    for (let i = firstAtOrAfter(all, from); i < all.length && (all[i]?.[0] ?? to) < to; i += 1) found.push(all[i] ?? [0, 0]);
    return found;
  };
};

// Keyword hits are computed on use: a segment without any code-shaped token never pays for
// scanning the lexicons, and a scan stops past the last position asked about.
const segment = (source: Source, raw: string): Segment => {
  const text = raw.indexOf('\r') >= 0 ? raw.replace(/\r\n?/g, '\n') : raw;
  const footer = FOOTER_RE.exec(text);
  return {
    source,
    text,
    codeWords: codeWordHits(text),
    decoyWords: windowHits(DECOY_RE, text),
    footerAt: footer ? footer.index : text.length,
  };
};

// Authentication mail is short; these caps keep a hostile message (megabytes of text, tens of
// thousands of anchors) within the per-message time target instead of scanning all of it.
const MAX_SEGMENT_CHARS = 100_000;
const MAX_LINKS = 300;

const NOT_BLANK = /\S/;

const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** Builds the segments and links of a message, deriving the HTML view when the parser did not. */
export const viewMessage = (message: ParsedMessage): MessageView => {
  const needsView = message.html.length > 0 && (message.htmlText === undefined || message.links === undefined);
  const derived = needsView ? htmlToView(message.html) : undefined;
  const htmlText = message.htmlText ?? derived?.text ?? '';
  const cap = (t: string): string => (t.length > MAX_SEGMENT_CHARS ? t.slice(0, MAX_SEGMENT_CHARS) : t);
  const subject = segment('subject', cap(message.subject));
  const segments = [subject, segment('text', cap(message.text)), segment('html', cap(htmlText))];
  let silent: boolean | undefined;
  return {
    // \S is exactly what trim() keeps: a test, without copying each part to trim it.
    segments: segments.filter((s) => NOT_BLANK.test(s.text)),
    links: (message.links ?? derived?.links ?? []).slice(0, MAX_LINKS),
    subject: message.subject,
    senderDomain: domainOf(message.from.address || message.envelopeFrom),
    subjectSilent: () => (silent ??= subject.codeWords(0).length === 0 && !hasKindWords(subject.text) && roleIn(subject.text) !== 'positive'),
  };
};
