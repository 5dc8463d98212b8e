const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

const codePoint = (value: number, whole: string): string =>
  Number.isInteger(value) && value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : whole;

const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return codePoint(Number.parseInt(lower.slice(2), 16), whole);
    if (lower.startsWith('#')) return codePoint(Number.parseInt(lower.slice(1), 10), whole);
    return ENTITIES[lower] ?? whole;
  });

const SKIPPED = new Set(['script', 'style', 'head', 'title']);
const BLOCKS = new Set(['p', 'div', 'tr', 'li', 'table', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/** What one tag adds to the text, given the state of the scan. */
interface ScanState {
  skipping: string | undefined;
  href: string | undefined;
}

const onTag = (tag: string, state: ScanState): string => {
  const closing = tag.startsWith('/');
  const name = /^\/?([a-z][a-z0-9]*)/i.exec(tag)?.[1]?.toLowerCase() ?? '';
  if (state.skipping !== undefined) {
    if (closing && name === state.skipping) state.skipping = undefined;
    return '';
  }
  if (!closing && SKIPPED.has(name) && !tag.endsWith('/')) {
    state.skipping = name;
    return '';
  }
  if (name === 'a' && !closing) {
    const match = HREF.exec(tag);
    state.href = match?.[1] ?? match?.[2] ?? match?.[3];
    return '';
  }
  if (name === 'a' && closing && state.href !== undefined) {
    const href = state.href;
    state.href = undefined;
    return ` (${href})`;
  }
  return name === 'br' || (closing && BLOCKS.has(name)) ? '\n' : '';
};

/**
 * Readable text of an HTML body for a model: tags dropped, block ends as line breaks, and each
 * link's address kept after its words ("Sign in (https://…)") so a link is never lost. One pass
 * with indexOf, so a hostile body (thousands of unclosed tags) costs linear time.
 */
export const htmlToText = (html: string): string => {
  const out: string[] = [];
  const state: ScanState = { skipping: undefined, href: undefined };
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (state.skipping === undefined) out.push(html.slice(at, open < 0 ? html.length : open));
    if (open < 0) break;
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      at = end < 0 ? html.length : end + 3;
      continue;
    }
    const close = html.indexOf('>', open);
    if (close < 0) break;
    out.push(onTag(html.slice(open + 1, close), state));
    at = close + 1;
  }
  return decodeEntities(out.join(''))
    .replace(/[ \t\f\v\r\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
};
