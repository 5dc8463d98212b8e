import { eachMatch } from './each-match.js';
import { decodeEntities } from './entities.js';
import type { MessageLink } from './types.js';

/** Visible text and anchors of an HTML body. */
export interface HtmlView {
  readonly text: string;
  readonly links: MessageLink[];
}

// Content of these elements is never shown to the reader.
const INVISIBLE = new Set(['head', 'style', 'script', 'title', 'noscript', 'template', 'svg', 'xml']);
const BLOCK = new Set([
  'p', 'div', 'br', 'tr', 'li', 'ul', 'ol', 'table', 'tbody', 'thead', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'hr', 'blockquote', 'center', 'section', 'article', 'header', 'footer', 'pre', 'dd', 'dt', 'body',
]);
// Cells become tab-separated so "one digit per cell" codes survive as a recognisable run.
const CELL = new Set(['td', 'th']);
const VOID = new Set(['br', 'hr', 'img', 'meta', 'link', 'input', 'col', 'area', 'base', 'wbr', 'source']);
// Tag names: a letter, then letters, digits, ':' or '-'.
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isNameChar = (c: number): boolean => isLetter(c) || (c >= 48 && c <= 58) || c === 45;
// A name runs at most 63 characters from the '<' (longer ones are cut there, as they always were).
const MAX_NAME_END = 64;

/**
 * End of the tag name that starts at `from`, or -1 when no name starts there. Read in place by
 * character, since a pattern's match array and its strings, for every tag, were most of the
 * garbage this conversion made.
 */
const tagNameEnd = (html: string, from: number, lt: number): number => {
  if (!isLetter(html.charCodeAt(from))) return -1;
  let end = from + 1;
  while (end < lt + MAX_NAME_END && isNameChar(html.charCodeAt(end))) end += 1;
  return end;
};
const ATTR = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g;
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden|max-height\s*:\s*0|font-size\s*:\s*0/i;

const attrs = (source: string): Map<string, string> => {
  const out = new Map<string, string>();
  eachMatch(ATTR, source, (m) => {
    const name = (m[1] ?? '').toLowerCase();
    if (!out.has(name)) out.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  });
  return out;
};

// Zero-width and soft-hyphen characters: dropped, so they cannot split a code or a word.
const isInvisible = (c: number): boolean => (c >= 0x200b && c <= 0x200f) || c === 0x2060 || c === 0xfeff || c === 0xad || c === 0x34f;
const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 13 || c === 10 || c === 12 || c === 0xa0;

/**
 * Drops invisible characters, then folds each run of blanks to one space; in one pass, and
 * returning the text itself when nothing changes (most runs), instead of two pattern replaces.
 */
const squash = (s: string): string => {
  let out = '';
  let from = 0;
  let inBlanks = false;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (isInvisible(c) || (inBlanks && isBlank(c))) {
      out += s.slice(from, i);
      from = i + 1;
    } else if (!isBlank(c)) inBlanks = false;
    else {
      inBlanks = true;
      if (c !== 32) {
        out += `${s.slice(from, i)} `;
        from = i + 1;
      }
    }
  }
  return from === 0 ? s : out + s.slice(from);
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

/** Mutable state of one conversion; kept in a class so the tag handler stays small. */
class Walker {
  out: string[] = [];
  links: MessageLink[] = [];
  skip: { name: string; depth: number } | undefined;
  anchor: OpenAnchor | undefined;

  emit(s: string): void {
    this.out.push(s);
    if (this.anchor) this.anchor.text += s;
  }

  text(raw: string): void {
    if (this.skip || raw.length === 0) return;
    // Indentation between tags is most of the text of mail HTML: it squashes to one space.
    if (onlyBlanks(raw)) return this.emit(' ');
    const s = squash(decodeEntities(raw));
    if (s.length > 0) this.emit(s);
  }

  tag(closing: boolean, name: string, attrSource: string): void {
    if (this.skip) {
      if (name === this.skip.name && !VOID.has(name)) this.skip.depth += closing ? -1 : attrSource.endsWith('/') ? 0 : 1;
      if (this.skip.depth <= 0) this.skip = undefined;
      return;
    }
    if (!closing && !VOID.has(name) && !attrSource.endsWith('/')) {
      // Tested on the raw attributes: parsing them for every tag cost more than the rare false hit.
      if (INVISIBLE.has(name) || HIDDEN_STYLE.test(attrSource)) {
        this.skip = { name, depth: 1 };
        return;
      }
    }
    if (name === 'a') return this.anchorTag(closing, attrSource);
    if (name === 'img' && this.anchor) this.anchor.image ||= attrs(attrSource).get('alt') ?? ' ';
    if (BLOCK.has(name)) this.emit('\n');
    else if (CELL.has(name) && closing) this.emit('\t');
  }

  anchorTag(closing: boolean, attrSource: string): void {
    if (this.anchor) this.closeAnchor();
    if (closing) return;
    const a = attrs(attrSource);
    const href = a.get('href');
    const button = BUTTON_HINT.test(`${a.get('style') ?? ''} ${a.get('class') ?? ''} ${a.get('role') ?? ''}`);
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

/**
 * Tidies every line and keeps an empty line only after a line with text (runs of blank lines
 * fold to one). One pass by index: splitting, mapping and filtering built three arrays per body.
 */
const tidyLines = (all: string): string => {
  const kept: string[] = [];
  let previous = 0;
  for (let from = 0; ; ) {
    const nl = all.indexOf('\n', from);
    const line = tidyLine(nl < 0 ? all.slice(from) : all.slice(from, nl));
    if (line.length > 0 || previous > 0) kept.push(line);
    previous = line.length;
    if (nl < 0) return kept.join('\n');
    from = nl + 1;
  }
};

const finish = (w: Walker, rest: string): HtmlView => {
  w.text(rest);
  w.closeAnchor();
  return { text: tidyLines(w.out.join('')).trim(), links: w.links };
};

/**
 * Converts an HTML body to the text a reader sees and the anchors they can click. Deliberately
 * small (no DOM): enough for mail, where layout is tables and inline styles. Elements hidden
 * with inline styles are dropped, so preheaders and tracking text do not look like content.
 */
export const htmlToView = (html: string): HtmlView => {
  const w = new Walker();
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
    // Indentation between tags is tested in place, so most runs are never cut out of the body.
    if (lt > pos && !w.skip) {
      if (onlyBlanks(html, pos, lt)) w.emit(' ');
      else w.text(html.slice(pos, lt));
    }
    if (html.startsWith('<!--', lt)) pos = skipTo(lt, '-->');
    else if (html.startsWith('<![CDATA[', lt)) pos = skipTo(lt, ']]>');
    else {
      if (gt < lt) gt = html.indexOf('>', lt);
      if (gt < 0) return finish(w, html.slice(lt));
      const closing = html.charCodeAt(lt + 1) === 47;
      const from = closing ? lt + 2 : lt + 1;
      const end = tagNameEnd(html, from, lt);
      const declaration = html[lt + 1] === '!' || html[lt + 1] === '?';
      if (end >= 0) w.tag(closing, html.slice(from, end).toLowerCase(), html.slice(end, gt).trim());
      else if (!declaration) w.text('<');
      pos = end >= 0 || declaration ? gt + 1 : lt + 1;
    }
  }
  return finish(w, html.slice(pos));
};
