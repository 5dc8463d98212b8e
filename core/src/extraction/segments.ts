import { htmlToView } from './html.js';
import { CODE_COMPOUND, CODE_WORDS, DECOY_WORDS, compileWords } from './lexicon.js';
import type { MessageLink, ParsedMessage } from './types.js';

/** Where in the message a piece of text came from. */
export type Source = 'subject' | 'text' | 'html';

/** Start and end offsets of keyword hits in a segment, in ascending order. */
export type Hits = readonly (readonly [number, number])[];

/** One readable part of a message, with its keyword hits found as far as they are asked for. */
export interface Segment {
  readonly source: Source;
  readonly text: string;
  /**
   * Code-word hits in order: every hit that starts before `until`, then possibly more (the first
   * one at or after it, when there is one). The hits are those of one full scan of the segment.
   */
  codeWords(until: number): Hits;
  /** Decoy-word hits, as `codeWords`. */
  decoyWords(until: number): Hits;
  /** Offset where a footer starts (signature delimiter), or the text length when there is none. */
  readonly footerAt: number;
}

/** The message as the engine reads it. */
export interface MessageView {
  readonly segments: readonly Segment[];
  readonly links: readonly MessageLink[];
  readonly subject: string;
  readonly senderDomain: string;
}

const CODE_RE = new RegExp(`${compileWords(CODE_WORDS).source}|${CODE_COMPOUND}`, 'gi');
const DECOY_RE = compileWords(DECOY_WORDS);
// "-- " on its own line is the usual signature delimiter; operator footers follow it.
const FOOTER_RE = /\n--[ \t]?\n/;

/**
 * Hits of a lexicon pattern, scanned only as far as queries have needed: codes sit near the top of
 * a message and nothing asks about the text after the last code-shaped token, so most segments
 * are never scanned to the end. The hits found are those of a full left-to-right scan, since
 * each search resumes where the previous match ended (as matchAll does).
 */
const lazyHits = (re: RegExp, text: string): ((until: number) => Hits) => {
  const found: (readonly [number, number])[] = [];
  let resume = 0;
  let done = false;
  return (until) => {
    while (!done && (found.length === 0 || (found[found.length - 1]?.[0] ?? 0) < until)) {
      re.lastIndex = resume;
      const m = re.exec(text);
      if (m === null) done = true;
      else {
        resume = m.index + m[0].length;
        found.push([m.index, resume]);
      }
    }
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
    codeWords: lazyHits(CODE_RE, text),
    decoyWords: lazyHits(DECOY_RE, text),
    footerAt: footer ? footer.index : text.length,
  };
};

// Authentication mail is short; these caps keep a hostile message (megabytes of text, tens of
// thousands of anchors) within the per-message time target instead of scanning all of it.
const MAX_SEGMENT_CHARS = 100_000;
const MAX_LINKS = 300;

const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** Builds the segments and links of a message, deriving the HTML view when the parser did not. */
export const viewMessage = (message: ParsedMessage): MessageView => {
  const needsView = message.html.length > 0 && (message.htmlText === undefined || message.links === undefined);
  const derived = needsView ? htmlToView(message.html) : undefined;
  const htmlText = message.htmlText ?? derived?.text ?? '';
  const cap = (t: string): string => (t.length > MAX_SEGMENT_CHARS ? t.slice(0, MAX_SEGMENT_CHARS) : t);
  const segments = [segment('subject', cap(message.subject)), segment('text', cap(message.text)), segment('html', cap(htmlText))];
  return {
    segments: segments.filter((s) => s.text.trim().length > 0),
    links: (message.links ?? derived?.links ?? []).slice(0, MAX_LINKS),
    subject: message.subject,
    senderDomain: domainOf(message.from.address || message.envelopeFrom),
  };
};
