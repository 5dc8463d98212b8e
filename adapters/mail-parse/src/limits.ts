import type { ParseFailure } from '@ephemail/core';

/** Caps applied to every message; see README.md for the reasoning behind each default. */
export interface MailParseLimits {
  /** Largest raw message accepted, in bytes. */
  readonly maxBytes: number;
  /** Most MIME parts (boundary delimiter lines) accepted. */
  readonly maxParts: number;
  /** Deepest multipart nesting accepted. */
  readonly maxDepth: number;
  /** Largest total size of all header blocks, in bytes. */
  readonly maxHeaderBytes: number;
  /** Wall-clock budget for one parse, in milliseconds. */
  readonly timeBudgetMs: number;
}

/** Defaults sized for authentication mail: small messages, few parts, no deep nesting. */
export const DEFAULT_LIMITS: MailParseLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxParts: 200,
  maxDepth: 16,
  maxHeaderBytes: 256 * 1024,
  timeBudgetMs: 1000,
};

const BOUNDARY_RE = /boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))/gi;

const countOccurrences = (haystack: string, needle: string, stopAt: number): number => {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0 && n <= stopAt; at = haystack.indexOf(needle, at + needle.length)) n += 1;
  return n;
};

/** Which body types the message really carries (the parser fills a missing one from the other). */
export interface BodyTypes {
  readonly _tag: 'BodyTypes';
  readonly plain: boolean;
  readonly html: boolean;
}

const PLAIN_RE = /content-type:[ \t]*text\/plain/i;
const HTML_RE = /content-type:[ \t]*text\/html/i;
const ANY_TYPE_RE = /content-type:/i;

const bodyTypes = (raw: string): BodyTypes => ({
  _tag: 'BodyTypes',
  // A message without any Content-Type is text/plain by RFC 2045's default.
  plain: PLAIN_RE.test(raw) || !ANY_TYPE_RE.test(raw),
  html: HTML_RE.test(raw),
});

/**
 * Refuses a message before any parsing: over the size cap, or with more delimiter lines of its
 * declared boundaries than the part cap. Counting is a linear scan of the raw bytes, so a hostile
 * message costs at most one pass however it is built.
 */
export const precheck = (raw: Uint8Array, limits: MailParseLimits): ParseFailure | BodyTypes => {
  if (raw.byteLength > limits.maxBytes) return { _tag: 'MessageTooLarge', size: raw.byteLength, max: limits.maxBytes };
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1');
  const types = bodyTypes(text);
  const boundaries = new Set<string>();
  // An exec loop gives the matches matchAll would, without the copy of the pattern it makes per call.
  BOUNDARY_RE.lastIndex = 0;
  for (let m = BOUNDARY_RE.exec(text); m !== null; m = BOUNDARY_RE.exec(text)) {
    const b = m[1] ?? m[2] ?? '';
    if (b.length > 0) boundaries.add(b);
    if (boundaries.size > limits.maxParts) return { _tag: 'TooManyParts', parts: boundaries.size, max: limits.maxParts };
  }
  let parts = 0;
  for (const b of boundaries) {
    parts += countOccurrences(text, `\n--${b}`, limits.maxParts);
    if (parts > limits.maxParts) return { _tag: 'TooManyParts', parts, max: limits.maxParts };
  }
  return types;
};
