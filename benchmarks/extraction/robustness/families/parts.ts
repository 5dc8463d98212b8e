/**
 * Parts: the same content in the part layouts mailers send. An HTML twin generated from the text
 * part (paragraphs, URLs made links); HTML only; text only (derived from the HTML when the mail
 * had none, as mailers derive it); a text part re-derived from the HTML beside it; the HTML inside
 * multipart/related with an inline logo.
 */
import { escapeHtml, htmlToText, insertAtBodyStart, textToHtml } from '../html.js';
import { withMail } from '../mail.js';
import type { Variant } from '../variant.js';

// A 1×1 transparent PNG: the logo's bytes do not matter, only that the part is there.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export const PARTS: readonly Variant[] = [
  {
    family: 'parts',
    name: 'html twin',
    does: 'the text part kept, the HTML replaced by a twin generated from it',
    apply: (c) => (c.mail.text === undefined ? undefined : withMail(c, { html: textToHtml(c.mail.text) })),
  },
  {
    family: 'parts',
    name: 'html only',
    does: 'the text part dropped (HTML twin of it when the mail had no HTML)',
    apply: (c) => (c.mail.text === undefined ? undefined : withMail(c, { text: undefined, html: c.mail.html ?? textToHtml(c.mail.text) })),
  },
  {
    family: 'parts',
    name: 'text only',
    does: 'the HTML dropped (text derived from it, "label [url]", when the mail had no text part)',
    apply: (c) => (c.mail.html === undefined ? undefined : withMail(c, { html: undefined, text: c.mail.text ?? htmlToText(c.mail.html, 'brackets') })),
  },
  {
    family: 'parts',
    name: 'derived text',
    does: 'the text part replaced by one derived from the HTML, "label <url>" and URLs on lines of their own',
    apply: (c, rng) => (c.mail.html === undefined ? undefined : withMail(c, { text: htmlToText(c.mail.html, rng.pick(['angle', 'own-line'] as const)) })),
  },
  {
    family: 'parts',
    name: 'related logo',
    does: 'the HTML inside multipart/related with an inline cid: logo at its top',
    apply: (c) => {
      if (c.mail.html === undefined) return undefined;
      const cid = `logo.${c.file.length}@${c.site.host}`;
      const img = `<div style="text-align:center"><img src="cid:${escapeHtml(cid)}" alt="${escapeHtml(c.site.name)}" width="120" height="40"></div>`;
      return withMail(c, { html: insertAtBodyStart(c.mail.html, img), images: [{ cid, filename: 'logo.png', bytes: PIXEL }] });
    },
  },
];
