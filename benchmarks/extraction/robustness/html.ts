/**
 * The few HTML operations the transformations need, on the markup as mail carries it: anchors
 * found and rewritten by their decoded href, fragments put at the start or end of the body, a text
 * part turned into its HTML twin and an HTML part into the text a mailer derives from it.
 */
import { decodeEntities } from '@ephemail/core';

export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One anchor of the markup: its place, attributes, inner markup and decoded href. */
export interface Anchor {
  readonly start: number;
  readonly end: number;
  readonly attrs: string;
  readonly inner: string;
  readonly href: string | undefined;
}

const ANCHOR = /<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

export const hrefOf = (attrs: string): string | undefined => {
  const m = HREF.exec(attrs);
  const raw = m?.[1] ?? m?.[2] ?? m?.[3];
  return raw === undefined ? undefined : decodeEntities(raw).trim();
};

export const anchors = (html: string): Anchor[] =>
  [...html.matchAll(ANCHOR)].map((m) => ({ start: m.index, end: m.index + m[0].length, attrs: m[1] ?? '', inner: m[2] ?? '', href: hrefOf(m[1] ?? '') }));

/** The markup with each anchor `f` answers a string for replaced by it. */
export const mapAnchors = (html: string, f: (a: Anchor) => string | undefined): string => {
  let out = '';
  let at = 0;
  for (const a of anchors(html)) {
    const replaced = f(a);
    if (replaced === undefined) continue;
    out += html.slice(at, a.start) + replaced;
    at = a.end;
  }
  return out + html.slice(at);
};

/** Attributes with the href set to `href` (escaped). */
export const withHref = (attrs: string, href: string): string => (HREF.test(attrs) ? attrs.replace(HREF, `href="${escapeHtml(href)}"`) : `${attrs} href="${escapeHtml(href)}"`);

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every occurrence of a URL (written raw or with `&amp;`), in hrefs and text, replaced by another. */
export const replaceUrlInHtml = (html: string, from: string, to: string): string => {
  const hrefs = mapAnchors(html, (a) => (a.href === from ? `<a${withHref(a.attrs, to)}>${a.inner}</a>` : undefined));
  const forms = [...new Set([escapeHtml(from), from.replace(/&/g, '&amp;'), from])].sort((a, b) => b.length - a.length);
  return hrefs.replace(new RegExp(forms.map(escapeRegExp).join('|'), 'g'), escapeHtml(to));
};

/** Every occurrence of a string in text and HTML bodies replaced (HTML: raw or escaped). */
export const replaceInBodies = (bodies: { text: string | undefined; html: string | undefined }, from: string, to: string, toHtml = escapeHtml(to)) => ({
  text: bodies.text?.split(from).join(to),
  html: bodies.html === undefined ? undefined : bodies.html.split(escapeHtml(from)).join(toHtml).split(from).join(toHtml),
});

const BODY_OPEN = /<body\b[^>]*>/i;
const BODY_CLOSE = /<\/body\s*>/i;

export const insertAtBodyStart = (html: string, fragment: string): string => {
  const m = BODY_OPEN.exec(html);
  return m === null ? fragment + html : html.slice(0, m.index + m[0].length) + fragment + html.slice(m.index + m[0].length);
};

export const insertAtBodyEnd = (html: string, fragment: string): string => {
  const m = BODY_CLOSE.exec(html);
  return m === null ? html + fragment : html.slice(0, m.index) + fragment + html.slice(m.index);
};

// Characters RFC 3986 never allows in a URL ({ } | \ ^ `) end it, as do quotes and brackets.
const URL_IN_TEXT = /https?:\/\/[^\s<>"'()[\]{}|\\^`]+[^\s<>"'()[\]{}|\\^`.,;:!?]/g;

/** The HTML twin a mailer builds from a text part: paragraphs, line breaks, URLs made links. */
export const textToHtml = (text: string): string => {
  const paragraph = (p: string): string => {
    let out = '';
    let at = 0;
    for (const m of p.matchAll(URL_IN_TEXT)) {
      out += escapeHtml(p.slice(at, m.index)) + `<a href="${escapeHtml(m[0])}">${escapeHtml(m[0])}</a>`;
      at = m.index + m[0].length;
    }
    return `<p>${(out + escapeHtml(p.slice(at))).replace(/\n/g, '<br>\n')}</p>`;
  };
  const body = text.replace(/\r\n?/g, '\n').trim().split(/\n{2,}/).map(paragraph).join('\n');
  return `<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"></head>\n<body style="font-family:sans-serif">\n${body}\n</body>\n</html>\n`;
};

/** How a derived text part shows a link: `label [url]`, `label <url>`, or the URL on a line of its own. */
export type LinkStyle = 'brackets' | 'angle' | 'own-line';

const BLOCK = /<\/?(?:p|div|br|tr|li|ul|ol|h[1-6]|table|tbody|thead|tfoot|blockquote|hr|section|article|header|footer|center|pre)\b[^>]*>/gi;

/**
 * The text an HTML-to-text converter keeps: no head, style, script or comments, blocks on lines of
 * their own, cells apart. Written here rather than taken from the engine, so a variant built from
 * it does not share the engine's own reading of HTML.
 */
export const visibleText = (html: string): string =>
  decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<\/t[dh]\s*>/gi, ' ')
      .replace(BLOCK, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** The text part a mailer derives from HTML: the visible text, each link's URL after its label. */
export const htmlToText = (html: string, style: LinkStyle): string => {
  const withUrls = mapAnchors(html, (a) => {
    if (a.href === undefined || !/^https?:/i.test(a.href)) return undefined;
    const label = visibleText(a.inner);
    const url = escapeHtml(a.href);
    if (label === a.href || label === '') return ` ${url} `;
    return style === 'brackets' ? `${a.inner} [${url}]` : style === 'angle' ? `${a.inner} &lt;${url}&gt;` : `${a.inner}<br>${url}<br>`;
  });
  return `${visibleText(withUrls)}\n`;
};
