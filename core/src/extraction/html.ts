import { isAsciiDigit, isAsciiLetter } from './ascii.js';
import { decodeEntities } from './entities.js';
import { holdsCode } from './split-codes.js';
import type { MessageLink } from './types.js';
import { isTrimmed } from './whitespace.js';

/** Visible text and anchors of an HTML body. */
export interface HtmlView {
  readonly text: string;
  readonly links: MessageLink[];
}

// Tag kinds, as bits: content of INVISIBLE elements is never shown to the reader; BLOCK elements
// break lines; cells (td, th) become tab-separated so "one digit per cell" codes survive as a run.
const INVISIBLE = 1;
const BLOCK = 2;
const CELL = 4;
const VOID = 8;
const ANCHOR = 16;
const IMAGE = 32;

// Tag names: a letter, then letters, digits, ':' or '-'.
const isNameChar = (c: number): boolean => isAsciiLetter(c) || isAsciiDigit(c) || c === 58 || c === 45;
// A name runs at most 63 characters from the '<' (longer ones are cut there, as they always were).
const MAX_NAME_END = 64;

/**
 * A tag name as a number, folded to lower case, read in place: one base-39 digit per character
 * (letters 1-26, digits 27-36, ':' 37, '-' 38), so names of up to ten characters (every name
 * below) are exact doubles. Longer names are cut out and lower-cased; a number never equals a
 * string, so both kinds of key compare as the names do. Cutting out and lower-casing every name,
 * then hashing it for four set lookups, was a string and a hash per tag.
 */
const MAX_PACKED = 10;
type NameKey = number | string;
const nameKey = (s: string, from: number, end: number): NameKey => {
  if (end - from > MAX_PACKED) return s.slice(from, end).toLowerCase();
  let key = 0;
  for (let i = from; i < end; i += 1) {
    const c = s.charCodeAt(i) | 32;
    key = key * 39 + (c >= 97 ? c - 96 : c >= 48 && c <= 57 ? c - 21 : c === 58 ? 37 : 38);
  }
  return key;
};

/**
 * Kinds by name key, in an open-addressed table of numbers: a tag costs a multiply and one or
 * two array reads instead of a Map lookup, which hashed the key on every tag. Every name below
 * packs to a number, so a cut-out (string) key has no kind.
 */
const SLOTS = 256;
const SLOT_KEYS = new Float64Array(SLOTS);
const SLOT_KINDS = new Uint8Array(SLOTS);
// Fibonacci hashing of the key's low 32 bits; keys are never 0, which marks a free slot.
const slotOf = (key: number): number => Math.imul(key | 0, 0x9e3779b1) >>> 24;
const kindOf = (key: NameKey): number => {
  if (typeof key !== 'number') return 0;
  for (let at = slotOf(key); SLOT_KEYS[at] !== 0; at = (at + 1) & (SLOTS - 1)) if (SLOT_KEYS[at] === key) return SLOT_KINDS[at] ?? 0;
  return 0;
};
const kinds = (names: string, bit: number): void => {
  for (const name of names.split(' ')) {
    const key = nameKey(name, 0, name.length) as number;
    let at = slotOf(key);
    while (SLOT_KEYS[at] !== 0 && SLOT_KEYS[at] !== key) at = (at + 1) & (SLOTS - 1);
    SLOT_KEYS[at] = key;
    SLOT_KINDS[at] = (SLOT_KINDS[at] ?? 0) | bit;
  }
};
kinds('head style script title noscript template svg xml', INVISIBLE);
kinds('p div br tr li ul ol table tbody thead h1 h2 h3 h4 h5 h6 hr blockquote center section article header footer pre dd dt body', BLOCK);
kinds('td th', CELL);
kinds('br hr img meta link input col area base wbr source', VOID);
kinds('a', ANCHOR);
kinds('img', IMAGE);

/** End of the tag name that starts at `from`, or -1 when no name starts there; read in place by character. */
const tagNameEnd = (html: string, from: number, lt: number): number => {
  if (!isAsciiLetter(html.charCodeAt(from))) return -1;
  let end = from + 1;
  while (end < lt + MAX_NAME_END && isNameChar(html.charCodeAt(end))) end += 1;
  return end;
};

/** True when the trimmed attribute text `[from, to)` ends with '/' (`<br/>`), tested in place. */
const selfClosing = (s: string, from: number, to: number): boolean => {
  let at = to - 1;
  while (at >= from && isTrimmed(s.charCodeAt(at))) at -= 1;
  return at >= from && s.charCodeAt(at) === 47;
};

// Attributes are read as the pattern `name\s*=\s*value` finds them, scanning left to right: a
// name starts with a letter, '_' or ':' and runs on over letters, digits and `_:.-`; a value is
// double-quoted, single-quoted, or a bare run of characters other than blanks and `"'=<>\``.
const isAttrStart = (c: number): boolean => isAsciiLetter(c) || c === 95 || c === 58;
const isAttrChar = (c: number): boolean => isAttrStart(c) || isAsciiDigit(c) || c === 45 || c === 46;
const isBareChar = (c: number): boolean => !isTrimmed(c) && c !== 34 && c !== 39 && c !== 61 && c !== 60 && c !== 62 && c !== 96;

/** True when `s[from, to)` is `name` (given in lower case), ignoring the case of letters. */
const namedAs = (s: string, from: number, to: number, name: string): boolean => {
  if (to - from !== name.length) return false;
  for (let i = 0; i < name.length; i += 1) if ((s.charCodeAt(from + i) | 32) !== name.charCodeAt(i)) return false;
  return true;
};

/**
 * The value of the first attribute named `names[i]` (given in lower case) in the tag text
 * `s[from, to)`, decoded, for each `i`: read in place, and only the values asked for are cut out.
 * A name with no '=' and value after it is passed over, and scanning goes on after the name, so
 * a broken attribute's text is read again for names. Once a quote is found unclosed in the tag,
 * no later value in it can close with it: that is remembered, so each quote is searched once.
 * The search for a closing quote may read past the tag, but only up to the next such quote, and
 * any later tag that opens one holds it: these reads never overlap, and the body stays linear.
 */
const attrs = (s: string, from: number, to: number, names: readonly string[]): (string | undefined)[] => {
  const out: (string | undefined)[] = names.map(() => undefined);
  const unclosed = [false, false];
  let i = from;
  while (i < to) {
    if (!isAttrStart(s.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const nameFrom = i;
    while (i < to && isAttrChar(s.charCodeAt(i))) i += 1;
    let at = i;
    while (at < to && isTrimmed(s.charCodeAt(at))) at += 1;
    if (at >= to || s.charCodeAt(at) !== 61) continue;
    at += 1;
    while (at < to && isTrimmed(s.charCodeAt(at))) at += 1;
    const q = s.charCodeAt(at);
    let valueFrom = at;
    let valueTo = at;
    if (q === 34 || q === 39) {
      const close = unclosed[q & 1] ? -1 : s.indexOf(q === 34 ? '"' : "'", at + 1);
      if (close < 0 || close >= to) {
        unclosed[q & 1] = true;
        continue;
      }
      valueFrom = at + 1;
      valueTo = close;
      at = close + 1;
    } else {
      while (at < to && isBareChar(s.charCodeAt(at))) at += 1;
      if (at === valueFrom) continue;
      valueTo = at;
    }
    const nameTo = i;
    const k = names.findIndex((name, n) => out[n] === undefined && namedAs(s, nameFrom, nameTo, name));
    if (k >= 0) out[k] = decodeEntities(s.slice(valueFrom, valueTo));
    i = at;
  }
  return out;
};

const ANCHOR_ATTRS = ['href', 'style', 'class', 'role'];
const IMAGE_ATTRS = ['alt'];
// Outside anchors, an image's alt and title and any element's title and aria-label are what a
// reader who cannot see the picture (or hovers it) is told: a code drawn as an image is printed there.
const LABEL_ATTRS = ['alt', 'title', 'aria-label'];
// Where a title or aria-label may start: most tags have neither, and their attributes are not read.
const LABEL_AT = /(?:title|aria-label)\s*=/gi;

// Zero-width and soft-hyphen characters: dropped, so they cannot split a code or a word.
const isInvisible = (c: number): boolean => (c >= 0x200b && c <= 0x200f) || c === 0x2060 || c === 0xfeff || c === 0xad || c === 0x34f;
const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 13 || c === 10 || c === 12 || c === 0xa0;

/**
 * Drops invisible characters in `s[from, to)`, then folds each run of blanks to one space; in one
 * pass, read in place, and returning the range itself when nothing changes (most runs). Printable
 * ASCII, most of any run, is neither blank nor invisible and is passed over with one test.
 */
const squash = (s: string, from = 0, to = s.length): string => {
  let out = '';
  let start = from;
  let inBlanks = false;
  for (let i = from; i < to; i += 1) {
    const c = s.charCodeAt(i);
    if (c > 32 && c < 0xa0) inBlanks = false;
    else if (isInvisible(c) || (inBlanks && isBlank(c))) {
      out += s.slice(start, i);
      start = i + 1;
    } else if (!isBlank(c)) inBlanks = false;
    else {
      inBlanks = true;
      if (c !== 32) {
        out += `${s.slice(start, i)} `;
        start = i + 1;
      }
    }
  }
  return start === from ? (from === 0 && to === s.length ? s : s.slice(from, to)) : out + s.slice(start, to);
};

/** True when `s` holds only the blanks `squash` folds (space, tab, CR, LF, form feed, no-break space) in `[from, to)`. */
const onlyBlanks = (s: string, from = 0, to = s.length): boolean => {
  for (let i = from; i < to; i += 1) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10 && c !== 12 && c !== 0xa0) return false;
  }
  return true;
};

interface OpenAnchor {
  href: string;
  text: string;
  image: string;
  button: boolean;
}

// Mail buttons are anchors painted with a background or named as buttons; they are the call to action.
const BUTTON_HINT = /background|btn|button|border-radius/i;

// Tested on the raw attributes: parsing them for every tag cost more than the rare false hit.
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden|max-height\s*:\s*0|font-size\s*:\s*0/i;

/** Mutable state of one conversion; kept in a class so the tag handler stays small. */
class Walker {
  /** Tidied lines so far, and the line being written: lines are tidied as they end. */
  lines: string[] = [];
  line = '';
  previous = 0;
  links: MessageLink[] = [];
  skip: { key: NameKey; depth: number } | undefined;
  anchor: OpenAnchor | undefined;
  /** Position of the first ':' at or after the last position searched from, or Infinity. */
  nextColon = -1;
  /** Position of the first '&' at or after the last position searched from, or Infinity. */
  nextAmp = -1;
  /** Position of the next title or aria-label attribute at or after the last position searched from, or Infinity. */
  nextLabel = -1;
  /** An attribute's code just written: the element's own text, when it prints the same, is not written twice. */
  echo: string | undefined;

  constructor(readonly html: string) {}

  emit(s: string): void {
    if (this.echo !== undefined && s !== ' ' && s !== '\n' && s !== '\t') {
      const same = s.trim() === this.echo;
      this.echo = undefined;
      if (same) return;
    }
    // Only block tags emit '\n' (text runs are squashed), so a line ends exactly at such an emit.
    if (s === '\n') this.endLine();
    // A line's leading spaces and tabs are trimmed when it ends: most lines between blocks hold
    // nothing else, and are never written.
    else if (this.line.length > 0 || (s !== ' ' && s !== '\t')) this.line += s;
    if (this.anchor) this.anchor.text += s;
  }

  /** Keeps the tidied line, and an empty line only after a line with text (runs of blank lines fold to one). */
  endLine(): void {
    const line = tidyLine(this.line);
    if (line.length > 0 || this.previous > 0) this.lines.push(line);
    this.previous = line.length;
    this.line = '';
  }

  text(raw: string): void {
    if (this.skip || raw.length === 0) return;
    // Indentation between tags is most of the text of mail HTML: it squashes to one space.
    if (onlyBlanks(raw)) return this.emit(' ');
    const s = squash(decodeEntities(raw));
    if (s.length > 0) this.emit(s);
  }

  /**
   * The text run `[from, to)` of the body, read in place: only a run holding a character
   * reference is cut out and decoded first, as `text` does. The next '&' is found once and reused
   * by every run before it, so the body is searched for it once in all.
   */
  run(from: number, to: number): void {
    if (onlyBlanks(this.html, from, to)) return this.emit(' ');
    if (this.nextAmp < from) {
      const at = this.html.indexOf('&', from);
      this.nextAmp = at < 0 ? Number.POSITIVE_INFINITY : at;
    }
    if (this.nextAmp < to) return this.text(this.html.slice(from, to));
    const s = squash(this.html, from, to);
    if (s.length > 0) this.emit(s);
  }

  /**
   * True when the attributes `[from, to)` hold a hidden style. Every such style holds a ':', and
   * most tags have none in their attributes: the next ':' of the body is found once and reused
   * by every tag before it (one scan of the body in all), and only the attributes of tags that
   * hold one (styles, links) are cut out and tested.
   */
  hidden(from: number, to: number): boolean {
    if (this.nextColon < from) {
      const at = this.html.indexOf(':', from);
      this.nextColon = at < 0 ? Number.POSITIVE_INFINITY : at;
    }
    return this.nextColon < to && HIDDEN_STYLE.test(this.html.slice(from, to));
  }

  tag(closing: boolean, key: NameKey, from: number, to: number): void {
    const kind = kindOf(key);
    if (this.skip) {
      if (key === this.skip.key && (kind & VOID) === 0) this.skip.depth += closing ? -1 : selfClosing(this.html, from, to) ? 0 : 1;
      if (this.skip.depth <= 0) this.skip = undefined;
      return;
    }
    if (!closing && (kind & VOID) === 0 && !selfClosing(this.html, from, to) && ((kind & INVISIBLE) !== 0 || this.hidden(from, to))) {
      this.skip = { key, depth: 1 };
      return;
    }
    if ((kind & ANCHOR) !== 0) return this.anchorTag(closing, from, to);
    if ((kind & IMAGE) !== 0 && this.anchor) this.anchor.image ||= attrs(this.html, from, to, IMAGE_ATTRS)[0] ?? ' ';
    else if (!closing && this.anchor === undefined && ((kind & IMAGE) !== 0 || this.labelled(from, to))) this.labelText(from, to);
    if ((kind & BLOCK) !== 0) this.emit('\n');
    else if ((kind & CELL) !== 0 && closing) this.emit('\t');
  }

  /** True when the attributes `[from, to)` may hold a title or aria-label; the body is searched once for them in all. */
  labelled(from: number, to: number): boolean {
    if (this.nextLabel < from) {
      LABEL_AT.lastIndex = from;
      this.nextLabel = LABEL_AT.exec(this.html)?.index ?? Number.POSITIVE_INFINITY;
    }
    return this.nextLabel < to;
  }

  /** Writes the element's alt, title or aria-label text where the element stands, when it holds a code. */
  labelText(from: number, to: number): void {
    for (const value of attrs(this.html, from, to, LABEL_ATTRS)) {
      const label = value === undefined ? '' : squash(value).trim();
      if (label === '' || !holdsCode(label)) continue;
      if (!this.line.endsWith(' ')) this.emit(' ');
      this.emit(label);
      this.emit(' ');
      this.echo = label;
      return;
    }
  }

  anchorTag(closing: boolean, from: number, to: number): void {
    if (this.anchor) this.closeAnchor();
    if (closing) return;
    const [href, style, cls, role] = attrs(this.html, from, to, ANCHOR_ATTRS);
    const button = BUTTON_HINT.test(`${style ?? ''} ${cls ?? ''} ${role ?? ''}`);
    if (href !== undefined) this.anchor = { href: href.trim(), text: '', image: '', button };
  }

  closeAnchor(): void {
    const a = this.anchor;
    this.anchor = undefined;
    if (!a) return;
    const text = a.text.replace(/\s+/g, ' ').trim();
    const imageOnly = text.length === 0 && a.image.length > 0;
    this.links.push({
      href: a.href,
      text: imageOnly ? a.image.trim() : text,
      ...(imageOnly ? { imageOnly } : {}),
      ...(a.button && !imageOnly ? { button: true } : {}),
    });
  }
}

const isSpaceOrTab = (c: number): boolean => c === 32 || c === 9;

/** Trims spaces and tabs off a line and the spaces around its tabs, without a pattern for most lines. */
const tidyLine = (line: string): string => {
  let a = 0;
  let b = line.length;
  while (a < b && isSpaceOrTab(line.charCodeAt(a))) a += 1;
  while (b > a && isSpaceOrTab(line.charCodeAt(b - 1))) b -= 1;
  const trimmed = a === 0 && b === line.length ? line : line.slice(a, b);
  return trimmed.includes('\t') ? trimmed.replace(/ ?\t ?/g, '\t') : trimmed;
};

const finish = (w: Walker, rest: string): HtmlView => {
  w.text(rest);
  w.closeAnchor();
  w.endLine();
  return { text: w.lines.join('\n').trim(), links: w.links };
};

/**
 * Converts an HTML body to the text a reader sees and the anchors they can click. Deliberately
 * small (no DOM): enough for mail, where layout is tables and inline styles. Elements hidden
 * with inline styles are dropped, so preheaders and tracking text do not look like content.
 */
export const htmlToView = (html: string): HtmlView => {
  const w = new Walker(html);
  // A hand-rolled scan so that every '<' costs O(1) amortised: the next '>' is found once and
  // reused, so hostile markup (thousands of unclosed tags) stays linear.
  let pos = 0;
  let gt = -1;
  const skipTo = (from: number, close: string): number => {
    const end = html.indexOf(close, from);
    return end < 0 ? html.length : end + close.length;
  };
  for (;;) {
    const lt = html.indexOf('<', pos);
    if (lt < 0) break;
    if (lt > pos && !w.skip) w.run(pos, lt);
    // Only a '<!' can open a comment or a character-data section: one test for every other tag.
    const bang = html.charCodeAt(lt + 1) === 33;
    if (bang && html.startsWith('<!--', lt)) pos = skipTo(lt, '-->');
    else if (bang && html.startsWith('<![CDATA[', lt)) pos = skipTo(lt, ']]>');
    else {
      if (gt < lt) gt = html.indexOf('>', lt);
      if (gt < 0) return finish(w, html.slice(lt));
      const closing = html.charCodeAt(lt + 1) === 47;
      const from = closing ? lt + 2 : lt + 1;
      const end = tagNameEnd(html, from, lt);
      const declaration = bang || html.charCodeAt(lt + 1) === 63;
      if (end >= 0) w.tag(closing, nameKey(html, from, end), end, gt);
      else if (!declaration) w.text('<');
      pos = end >= 0 || declaration ? gt + 1 : lt + 1;
    }
  }
  return finish(w, html.slice(pos));
};
