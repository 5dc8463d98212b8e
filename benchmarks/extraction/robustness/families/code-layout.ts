/**
 * Code layout: the code printed as mail prints it: spaced into groups, one character apart,
 * dashed, one character per table cell, large in a styled box, or only as an image's alt or title
 * text. Spacing and dashes are applied to both bodies and the printed and compact forms both count
 * as the answer; cells, the box and the image are HTML layouts, so the text part is dropped (the
 * HTML is the text part's twin when the mail had none).
 */
import { escapeHtml, textToHtml } from '../html.js';
import { withExpect, withMail, type Case } from '../mail.js';
import { inHtmlText, replaceInHtmlText, type Variant } from '../variant.js';

const groups = (code: string): string[] => {
  const size = code.length % 3 === 0 ? 3 : code.length % 4 === 0 ? 4 : Math.ceil(code.length / 2);
  return code.match(new RegExp(`.{1,${size}}`, 'g')) ?? [code];
};

/** A code mail's code without separators, when the bodies show it. */
const codeOf = (c: Case): { printed: string; compact: string } | undefined => {
  const s = c.expect.secret;
  if (s?.kind !== 'otp') return undefined;
  const compact = s.value.replace(/[\s-]+/g, '');
  return compact.length < 4 ? undefined : { printed: s.value, compact };
};

/** Both bodies with the printed code re-spelled; printed and compact forms both the answer. */
const respelled = (name: string, does: string, spell: (compact: string) => string): Variant => ({
  family: 'code layout',
  name,
  does,
  apply: (c) => {
    const code = codeOf(c);
    if (code === undefined) return undefined;
    const next = spell(code.compact);
    const text = c.mail.text?.split(code.printed).join(next);
    const html = c.mail.html === undefined ? undefined : replaceInHtmlText(c.mail.html, code.printed, escapeHtml(next));
    if (text === c.mail.text && html === c.mail.html) return undefined;
    return withExpect(withMail(c, { text, html }), { secret: { kind: 'otp', value: next }, alternatives: [code.compact, code.printed] });
  },
});

/** The HTML's printed code replaced by markup; the text part dropped. */
const htmlLayout = (name: string, does: string, markup: (compact: string, c: Case) => string): Variant => ({
  family: 'code layout',
  name,
  does,
  apply: (c) => {
    const code = codeOf(c);
    const html = c.mail.html ?? (c.mail.text === undefined ? undefined : textToHtml(c.mail.text));
    if (code === undefined || html === undefined || !inHtmlText(html, code.printed)) return undefined;
    const out = replaceInHtmlText(html, code.printed, markup(code.compact, c));
    return withExpect(withMail(c, { text: undefined, html: out }), { alternatives: [code.compact] });
  },
});

const cell = (ch: string): string => `<td style="width:40px;height:48px;border:1px solid #d0d0d0;border-radius:4px;text-align:center;font-size:24px;font-family:monospace">${escapeHtml(ch)}</td>`;

export const CODE_LAYOUT: readonly Variant[] = [
  respelled('grouped', 'the code in groups of 3 or 4 split by spaces (123 456)', (code) => groups(code).join(' ')),
  respelled('letter-spaced', 'one space between every character (1 2 3 4 5 6)', (code) => [...code].join(' ')),
  respelled('dashed', 'groups joined by a dash (123-456)', (code) => groups(code).join('-')),
  htmlLayout('cells', 'one character per table cell, HTML only', (code) => `<table role="presentation" style="margin:16px auto;border-spacing:6px"><tr>${[...code].map(cell).join('')}</tr></table>`),
  htmlLayout(
    'styled box',
    'the code large in a shaded, bordered box, letter-spaced by CSS, HTML only',
    (code) => `<div style="margin:24px auto;padding:16px 24px;background:#f4f6f8;border:1px dashed #b0b8c0;border-radius:8px;text-align:center;font-family:Menlo,Consolas,monospace;font-size:32px;font-weight:700;letter-spacing:8px">${escapeHtml(code)}</div>`,
  ),
  htmlLayout('image alt only', 'the code shown as an image; its characters only in the alt text, HTML only', (code, c) => `<img src="https://${c.site.host}/render/code.png?v=${code.length}" alt="${escapeHtml(code)}" width="180" height="48">`),
  htmlLayout('title only', 'the code shown as an image; its characters only in the title attribute, HTML only', (code, c) => `<img src="https://${c.site.host}/render/code.png?v=${code.length}" title="${escapeHtml(code)}" alt="" width="180" height="48">`),
];
