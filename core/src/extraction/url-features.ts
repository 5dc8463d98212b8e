import { Buffer } from 'node:buffer';
import { compileWords } from './lexicon.js';
import { UNDO_PATH_WORDS } from './link-roles.js';
import type { LinkKind } from './types.js';

/** What a URL's own text says about it. */
export interface UrlFeatures {
  /** 2: carries a long random token; 1: a short or structured one (UUID, `code=AB12CD`); 0: none. */
  readonly token: 0 | 1 | 2;
  /** Link kind its path or query names point to, if any. */
  readonly kindHint: LinkKind | undefined;
  /** Path names a footer or settings page (unsubscribe, help, privacy, revoke…). */
  readonly negative: boolean;
  readonly host: string;
  /** The token is weak and a run of 16 or more digits: random enough, or an id (see links.ts). */
  readonly longNumber: boolean;
}

// Parameters that carry where to go after the action; their URL value is never "the" link.
const AFTER_ACTION = /^(redirect_?to|redirect_?ur[il]|callback_?url|return_?(?:url|to)|next|continue|state|service|origin|referr?er)$/i;
// Parameters that say nothing secret (identity, tracking, display).
const NOT_SECRET = /^(utm_\w+|email|lang|locale|hl|theme|source|ref|medium|campaign|name|team_?name|organi[sz]ation_?name|user_?name|login_?name|type|expires?|expire|mode|tab_?id|client_?id|scope|response_?type|from_?email)$/i;
const SECRET_PARAM = /(token|code|key|secret|sig|signature|hash|otp|nonce|ticket|oobcode|verifier|auth)/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const JWT = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/;
const NEGATIVE_PATH = /unsubscribe|opt-?out|cancel|\bdeny\b|reject|decline|not[-_]?me\b|wasnt[-_]?me|\babort\b|\bundo\b|preferences|privacy|terms|\/help\b|\/support\b|\/faq|\/contact|revoke|\/report|notification|\/settings|\/legal|\/about\b|\/blog\b|\/docs?\b/i;
const UNDO_PATH = compileWords(UNDO_PATH_WORDS, 'i');
// URL words are English in practice, whatever language the mail is in.
const URL_HINTS: readonly [LinkKind, RegExp][] = [
  ['password_reset', /reset|recover|forgot|passw(or)?d|credential/gi],
  ['invite', /invit|join|accept|membership/gi],
  ['verify_email', /verif|confirm|activat|validat|e-?mail[-_]?change|sign-?up|register|registration|opt-?in\b|(?<!un)subscri/gi],
  ['sign_in', /log-?in|sign-?in|magic|session|callback|passwordless|\botp\b/gi],
];

/** The kind whose URL word occurs last: the deepest path segment is the most specific. */
const hintOf = (words: string): LinkKind | undefined => {
  // No URL word is empty: most links have no `type` parameter, and need no scan for it.
  if (words.length === 0) return undefined;
  let best: [LinkKind, number] | undefined;
  for (const [kind, re] of URL_HINTS) {
    let at = -1;
    // The matches matchAll would give, without its iterator and copy of the pattern.
    re.lastIndex = 0;
    for (let m = re.exec(words); m !== null; m = re.exec(words)) at = m.index;
    if (at >= 0 && (!best || at > best[1])) best = [kind, at];
  }
  return best?.[0];
};

const TYPED = /^(type|action|mode)$/i;
const LONG_DIGITS = /^\d{16,}$/;
const isLongNumber = (s: string): boolean => s.length >= 16 && LONG_DIGITS.test(s);
const FRAGMENT_PAIRS = /^[^/=&]+=[^/]*$/;
// The shortest strings JWT and UUID can match: three runs of 8 with two dots; 8-4-4-4-12 hex digits.
const JWT_MIN = 26;
const UUID_LENGTH = 36;
// Distinct characters (the dash included) a UUID holds at most when it is a placeholder.
const PLACEHOLDER_CHARS = 4;
// Bits of what one pass over a value finds: a lower-case ASCII letter, an upper-case one, a digit,
// and a character that is neither a hex digit nor a separator.
const LOWER = 1;
const UPPER = 2;
const DIGIT = 4;
const NOT_HEX = 8;

/**
 * Strength of one path segment or parameter value as a secret token. The JWT and UUID patterns
 * are tried only on values of a length they can match (most segments are short words), and the
 * patterns are compiled once instead of rebuilt by a literal on every call. The rest reads the
 * value without its separators (`-_.~:`) in one pass, without building that string: separators
 * are neither letters nor digits, so they change only the length the rules count.
 */
export const tokenStrength = (value: string, name = ''): 0 | 1 | 2 => {
  if (value.length >= JWT_MIN && JWT.test(value)) return 2;
  // A UUID of a few repeated digits ("00000000-0000-…") is a placeholder, not a secret.
  if (value.length === UUID_LENGTH && UUID.test(value)) return new Set(value).size > PLACEHOLDER_CHARS ? 1 : 0;
  let length = 0;
  let seen = 0;
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    // - . : _ ~
    if (c === 45 || c === 46 || c === 58 || c === 95 || c === 126) continue;
    length += 1;
    if (c >= 97 && c <= 122) seen |= c <= 102 ? LOWER : LOWER | NOT_HEX;
    else if (c >= 65 && c <= 90) seen |= c <= 70 ? UPPER : UPPER | NOT_HEX;
    else if (c >= 48 && c <= 57) seen |= DIGIT;
    else seen |= NOT_HEX;
  }
  // How many of the three classes (lower, upper, digit) the value holds.
  const classes = (seen & LOWER) + ((seen & UPPER) >> 1) + ((seen & DIGIT) >> 2);
  if (length >= 16 && (classes >= 2 || (length >= 20 && (seen & NOT_HEX) === 0))) return 2;
  if (length >= 4 && SECRET_PARAM.test(name)) return length >= 12 && classes >= 2 ? 2 : 1;
  if (length >= 6 && classes >= 2 && (seen & DIGIT) !== 0) return 1;
  return looksRandom(value, length, seen, classes) ? 1 : 0;
};

// A run of digits this long is rarely a word or a date: an id or a secret (a timestamp is 10-13).
const LONG_NUMBER = 12;
// Letters of one case this many, with few vowels, are not a word of any language written in Latin.
const LONG_LETTERS = 16;
const VOWELS = /[aeiouy]/gi;

/**
 * The test for values the rules above leave out, whatever their parameter's name: a long run of
 * digits, a long run of letters of one case with few vowels (base32), or mixed-case letters that
 * change case often (not CamelCase). Such a value makes its link at least a weak candidate.
 */
const looksRandom = (value: string, length: number, seen: number, classes: number): boolean => {
  if (seen === DIGIT) return length >= LONG_NUMBER;
  if ((seen & NOT_HEX) !== 0 && /[^A-Za-z0-9\-._~:]/.test(value)) return false;
  if (classes === 1 && (seen & DIGIT) === 0 && length >= LONG_LETTERS) {
    const vowels = value.match(VOWELS)?.length ?? 0;
    return vowels / length < 0.25 && new Set(value.toLowerCase()).size >= 10;
  }
  if ((seen & (LOWER | UPPER)) === (LOWER | UPPER) && length >= 10) {
    let changes = 0;
    for (let i = 1; i < value.length; i += 1) if ((value.charCodeAt(i - 1) < 97) !== (value.charCodeAt(i) < 97)) changes += 1;
    return changes >= 4;
  }
  return false;
};

// Without a '%' there is nothing to decode (and nothing that could throw): most segments.
const safeDecode = (s: string): string => {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * The query pairs of a URL. Most links have no query: reading `searchParams` builds and parses a
 * URLSearchParams object even then, so an empty query is answered without one.
 */
export const queryPairs = (url: URL): [string, string][] => (url.search.length > 1 ? [...url.searchParams.entries()] : []);

/** Appends the non-empty pieces of `s` between '/' to `out`, decoded: `s.split('/').filter(Boolean).map(safeDecode)` without the arrays. */
const pushPieces = (out: string[], s: string): void => {
  let from = 0;
  for (let at = s.indexOf('/'); ; at = s.indexOf('/', from)) {
    const end = at < 0 ? s.length : at;
    if (end > from) out.push(safeDecode(s.slice(from, end)));
    if (at < 0) return;
    from = at + 1;
  }
};

/**
 * Splits a URL into path segments and query pairs, including a hash-routed path and query.
 * `query` is the URL's own query pairs, when the caller has read them already.
 */
const parts = (url: URL, query = queryPairs(url)): { segments: string[]; params: [string, string][] } => {
  const hash = url.hash;
  // A fragment of name=value pairs with no route before them ("#token=…&type=…") is a query.
  const bare = hash.length > 1 && !hash.includes('?') && FRAGMENT_PAIRS.test(hash.slice(1));
  const [hashPath = '', hashQuery = ''] = bare ? ['', hash.slice(1)] : hash.length > 1 ? hash.slice(1).split('?', 2) : [];
  const segments: string[] = [];
  pushPieces(segments, url.pathname);
  pushPieces(segments, hashPath);
  const params = hashQuery.length > 0 ? [...query, ...new URLSearchParams(hashQuery).entries()] : query;
  return { segments, params };
};

/**
 * Reads the token, kind hint and footer signals from a URL. `query` is the URL's own query pairs,
 * when the caller has read them already (reading them builds a URLSearchParams and an array).
 */
export const urlFeatures = (url: URL, query?: [string, string][]): UrlFeatures => {
  const { segments, params } = parts(url, query);
  let token: 0 | 1 | 2 = 0;
  for (const s of segments) {
    const t = tokenStrength(s);
    if (t > token) token = t;
  }
  const path = segments.join('/');
  // The path segments, then the names of telling parameters, joined by '/'.
  let words = path;
  let joined = segments.length;
  let typed: string | undefined;
  for (const [k, v] of params) {
    if (typed === undefined && TYPED.test(k)) typed = v;
    if (AFTER_ACTION.test(k) || NOT_SECRET.test(k)) continue;
    const t = tokenStrength(v, k);
    if (t > token) token = t;
    words = joined > 0 ? `${words}/${k}` : k;
    joined += 1;
  }
  const kindHint = hintOf(typed ?? '') ?? hintOf(words);
  // A path naming undoing in any language ("/verwerfen/", "/annuleren/") is the way out, as "/cancel/" is.
  const negative = NEGATIVE_PATH.test(`/${path}`) || UNDO_PATH.test(path) || (typed !== undefined && UNDO_PATH.test(typed));
  const longNumber = token === 1 && (segments.some(isLongNumber) || params.some(([, v]) => isLongNumber(v)));
  return { token, kindHint, negative, host: url.hostname.toLowerCase(), longNumber };
};

const HTTP = /^https?:\/\//i;
// "http" in base64 and base64url, whatever follows: a destination a tracker encoded so.
const BASE64_HTTP = /^aHR0c[A-Za-z0-9+/_-]{10,}={0,2}$/;
// A URL carried whole in one path segment, percent-encoded (`/CL0/https%3A%2F%2F…/1/…`).
const PATH_HTTP = /\/(https?%3A%2F%2F[^/]+)/i;

/** `v` as a URL when it is one, written out or base64-encoded; undefined otherwise. */
const carriedUrl = (v: string): URL | undefined => {
  const text = HTTP.test(v) ? v : BASE64_HTTP.test(v) ? Buffer.from(v, 'base64url').toString('utf8') : undefined;
  if (text === undefined || !HTTP.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

/**
 * The destination a click-tracking redirector forwards to, when it is carried in a parameter
 * (URL-encoded or base64-encoded) or percent-encoded in a path segment; undefined for ordinary
 * links, including after-login `redirect_to`-style parameters. `query` is the URL's own query
 * pairs, when the caller has read them already.
 */
export const unwrapRedirect = (url: URL, query = queryPairs(url)): URL | undefined => {
  for (const [k, v] of query) {
    if (AFTER_ACTION.test(k)) continue;
    const carried = carriedUrl(v);
    if (carried !== undefined) return carried;
  }
  const inPath = url.pathname.length > 16 ? PATH_HTTP.exec(url.pathname) : null;
  return inPath?.[1] === undefined ? undefined : carriedUrl(safeDecode(inPath[1]));
};

/**
 * True when a URL's own query carries a token under a name that says it is one (`token=`,
 * `code=`): such a link is the secret link even when it also carries where to go afterwards. A
 * tracker's own ids (`id=`, `s=`, a hash in the path) say nothing of the kind.
 */
export const ownsNamedToken = (query: readonly [string, string][]): boolean => query.some(([k, v]) => SECRET_PARAM.test(k) && !HTTP.test(v) && tokenStrength(v, k) > 0);

/** Parses an http(s) URL; anything else (mailto:, tel:, relative, malformed) yields undefined. */
export const parseHttpUrl = (href: string): URL | undefined => {
  if (!HTTP.test(href)) return undefined;
  try {
    return new URL(href);
  } catch {
    return undefined;
  }
};

const ZONE = /^(co|com|org|net|ac|gov|edu|ne|or)$/;

/** Index of the last '.' of `s` before `end`, or -1; by index, so no label array is built. */
const dotBefore = (s: string, end: number): number => (end <= 0 ? -1 : s.lastIndexOf('.', end - 1));

/** A crude registrable domain: the last two labels, three under a two-letter country code's `co.`-style zone. */
export const siteOf = (host: string): string => {
  const lower = host.toLowerCase();
  const h = lower.endsWith('.') ? lower.slice(0, -1) : lower;
  const last = dotBefore(h, h.length);
  const second = dotBefore(h, last);
  if (second < 0) return h;
  const zoned = h.length - last - 1 === 2 && ZONE.test(h.slice(second + 1, last));
  if (!zoned) return h.slice(second + 1);
  const third = dotBefore(h, second);
  return third < 0 ? h : h.slice(third + 1);
};
