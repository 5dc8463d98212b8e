import { isAsciiLetter } from './ascii.js';
import { decodeEntities, referenceAt } from './entities.js';
import { secretFinder, type SecretFinder, type SecretSpan, type SecretValue } from './secret-masker.js';

/**
 * A text as a reader of the HTML sees it, each of its UTF-16 units tied to the stretch of markup
 * `[from, to)` it was read from: a character reference is one unit read from all of `&#52;`, a
 * tag is a U+0001 read from nothing. Masking finds secrets in this text, where `<b>482</b>913`
 * and `&#52;&#56;…` read as the engine reads them, and rewrites the markup under what it found.
 */
const NAMED_REFERENCE = /&[A-Za-z][A-Za-z0-9]{1,31};/y;

class View {
  private readonly parts: string[] = [];
  readonly from: number[] = [];
  readonly to: number[] = [];

  text(): string {
    return this.parts.join('');
  }

  /** The characters of `html[start, end)`, references decoded. */
  read(html: string, start: number, end: number): void {
    let i = start;
    while (i < end) {
      const amp = html.indexOf('&', i);
      const plain = amp < 0 || amp >= end ? end : amp;
      if (plain > i) this.copy(html, i, plain);
      if (plain === end) return;
      const ref = referenceAt(html, amp);
      if (ref !== undefined && ref.end <= end) {
        this.put(ref.text, amp, ref.end);
        i = ref.end;
        continue;
      }
      // A name the decoder does not know may still be an invisible character to a browser
      // (HTML5 has over two thousand): it is read as a place a code may be split at.
      NAMED_REFERENCE.lastIndex = amp;
      const named = NAMED_REFERENCE.exec(html);
      if (named !== null && amp + named[0].length <= end) {
        this.put('\u0001', amp, amp + named[0].length);
        i = amp + named[0].length;
        continue;
      }
      this.copy(html, amp, amp + 1);
      i = amp + 1;
    }
  }

  /** Where a tag stood: nothing the reader reads, but a place a code may be split at. */
  mark(at: number): void {
    this.put('\u0001', at, at);
  }

  private copy(html: string, start: number, end: number): void {
    this.parts.push(html.slice(start, end));
    for (let k = start; k < end; k += 1) {
      this.from.push(k);
      this.to.push(k + 1);
    }
  }

  /** `text` read from `[from, to)`: its first unit stands for the whole stretch, the others for nothing. */
  private put(text: string, from: number, to: number): void {
    this.parts.push(text);
    for (let k = 0; k < text.length; k += 1) {
      this.from.push(k === 0 ? from : to);
      this.to.push(to);
    }
  }
}

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/**
 * Reads the tag that opens at `lt`, calling `value` with the stretch of each attribute value, and
 * answers where the tag ends (after its '>', or the end of the HTML). Quoted values may hold '>'.
 */
const readTag = (html: string, lt: number, value: (start: number, end: number) => void): number => {
  let i = lt + 1;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (c === 62) return i + 1;
    if (c !== 61) {
      i += 1;
      continue;
    }
    i += 1;
    while (i < html.length && isBlank(html.charCodeAt(i))) i += 1;
    const q = html.charCodeAt(i);
    if (q === 34 || q === 39) {
      const close = html.indexOf(q === 34 ? '"' : "'", i + 1);
      const end = close < 0 ? html.length : close;
      value(i + 1, end);
      i = end + 1;
    } else {
      const start = i;
      while (i < html.length && !isBlank(html.charCodeAt(i)) && html.charCodeAt(i) !== 62) i += 1;
      value(start, i);
    }
  }
  return html.length;
};

/**
 * The texts of an HTML document a reader or a program can read: the body's text nodes joined
 * across tags (one view, so a code split into cells or bold runs reads whole), and each attribute
 * value and comment on its own (an `alt`, a `title`, an `href`).
 */
const htmlViews = (html: string): View[] => {
  const body = new View();
  const views = [body];
  const own = (start: number, end: number): void => {
    const view = new View();
    view.read(html, start, end);
    views.push(view);
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    const stop = lt < 0 ? html.length : lt;
    body.read(html, i, stop);
    if (lt < 0) break;
    const next = html.charCodeAt(lt + 1);
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      own(lt + 4, close < 0 ? html.length : close);
      body.mark(lt);
      i = close < 0 ? html.length : close + 3;
    } else if (isAsciiLetter(next) || next === 47 || next === 33 || next === 63) {
      body.mark(lt);
      i = readTag(html, lt, own);
    } else {
      body.read(html, lt, lt + 1);
      i = lt + 1;
    }
  }
  return views;
};

interface Edit {
  readonly from: number;
  readonly to: number;
  readonly text: string;
}

/** The markup edits that show a view's spans masked: each span's first unit becomes its replacement, the rest go. */
const editsOf = (view: View, spans: readonly SecretSpan[]): Edit[] => {
  const edits: Edit[] = [];
  for (const span of spans) {
    for (let k = span.start; k < span.end; k += 1) {
      const from = view.from[k]!;
      const to = view.to[k]!;
      if (k === span.start) edits.push({ from, to, text: span.replacement });
      else if (to > from) edits.push({ from, to, text: '' });
    }
  }
  return edits;
};

const applyEdits = (html: string, edits: Edit[]): string => {
  if (edits.length === 0) return html;
  edits.sort((a, b) => a.from - b.from);
  let out = '';
  let last = 0;
  for (const edit of edits) {
    if (edit.from < last) continue;
    out += html.slice(last, edit.from) + edit.text;
    last = edit.to;
  }
  return out + html.slice(last);
};

const maskViews = (html: string, find: SecretFinder): string =>
  applyEdits(
    html,
    htmlViews(html).flatMap((view) => editsOf(view, find(view.text()))),
  );

/**
 * True when any secret can still be read in the HTML: in one of its views, or in the whole markup
 * with references decoded (a script, a broken tag: whatever the views may have read otherwise).
 */
const stillShows = (html: string, find: SecretFinder): boolean =>
  htmlViews(html).some((view) => find(view.text()).length > 0) || find(decodeEntities(html)).length > 0;

/** An HTML body as served to a reader who may not see its secrets. */
export interface MaskedHtml {
  readonly html: string;
  /** True when a secret could not be located in the markup with certainty: `html` is then empty. */
  readonly withheld: boolean;
}

/**
 * A function that hides every given secret in an HTML body on the view a reader has of it: text
 * nodes with references decoded and joined across tags, attribute values and comments. Where the
 * masked markup still shows a secret by any of those readings, the HTML is withheld whole rather
 * than served with it.
 */
export const htmlSecretMasker = (secrets: readonly SecretValue[]): ((html: string) => MaskedHtml) => {
  if (!secrets.some((s) => s.value.length > 0)) return (html) => ({ html, withheld: false });
  const find = secretFinder(secrets);
  return (html) => {
    if (html === '') return { html, withheld: false };
    const masked = maskViews(html, find);
    return stillShows(masked, find) ? { html: '', withheld: true } : { html: masked, withheld: false };
  };
};
