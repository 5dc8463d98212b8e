/**
 * Anchors: the secret link's anchor shown as mail shows it: its own URL, a verb, "click here", an
 * image (with and without alt text), or a bulletproof button (a table cell painted as a button
 * around the anchor). Only the anchors whose href is the secret change; the text part stays.
 */
import { escapeHtml, mapAnchors, withHref, type Anchor } from '../html.js';
import { withMail, type Case } from '../mail.js';
import { langOf, VERBS } from '../phrases.js';
import { purposeOf, type Variant } from '../variant.js';

const verbOf = (c: Case): string => VERBS[langOf(c.lang)][purposeOf(c)];

const button = (href: string, label: string): string =>
  '<table role="presentation" border="0" cellpadding="0" cellspacing="0" style="margin:24px auto"><tr>' +
  '<td align="center" bgcolor="#1a73e8" style="border-radius:6px">' +
  `<a href="${escapeHtml(href)}" target="_blank" style="display:inline-block;padding:12px 28px;font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;background:#1a73e8">${escapeHtml(label)}</a>` +
  '</td></tr></table>';

const image = (c: Case, alt: string | undefined): string =>
  `<img src="https://${c.site.host}/static/email/${purposeOf(c)}-button.png" ${alt === undefined ? '' : `alt="${escapeHtml(alt)}" `}width="220" height="48" style="display:block;border:0">`;

/** A variant that rewrites each anchor of the secret link. */
const anchorVariant = (name: string, does: string, rewrite: (a: Anchor, c: Case, href: string) => string): Variant => ({
  family: 'anchors',
  name,
  does,
  apply: (c) => {
    const secret = c.expect.secret;
    if (secret?.kind !== 'magic_link' || c.mail.html === undefined) return undefined;
    let hit = false;
    const html = mapAnchors(c.mail.html, (a) => {
      if (a.href !== secret.value) return undefined;
      hit = true;
      return rewrite(a, c, secret.value);
    });
    return hit ? withMail(c, { html }) : undefined;
  },
});

const plainAnchor = (a: Anchor, href: string, inner: string): string => `<a${withHref(a.attrs, href)}>${inner}</a>`;

export const ANCHORS: readonly Variant[] = [
  anchorVariant('url', 'anchor text is the URL itself', (a, _c, href) => plainAnchor(a, href, escapeHtml(href))),
  anchorVariant('verb', "anchor text is a verb for the link's purpose, in the mail's language", (a, c, href) => plainAnchor(a, href, escapeHtml(verbOf(c)))),
  anchorVariant('click here', 'anchor text is "click here" in the mail\'s language', (a, c, href) => plainAnchor(a, href, escapeHtml(VERBS[langOf(c.lang)].here))),
  anchorVariant('image with alt', 'anchor holds only an image whose alt text is the verb', (a, c, href) => plainAnchor(a, href, image(c, verbOf(c)))),
  anchorVariant('image without alt', 'anchor holds only an image, no alt text', (a, c, href) => plainAnchor(a, href, image(c, undefined))),
  anchorVariant('button table', 'anchor replaced by a bulletproof button: a painted table cell around a styled anchor', (_a, c, href) => button(href, verbOf(c))),
];
