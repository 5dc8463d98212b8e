/**
 * ApostropheCMS (npm `apostrophe`): the password-reset mail of `@apostrophecms/login`
 * (`resetRequest`): `modules/@apostrophecms/login/views/passwordResetEmail.html` rendered with
 * nunjucks (autoescaped, as Apostrophe's templates are) and the subject `passwordResetRequest` of
 * `modules/@apostrophecms/i18n/i18n/<lang>.json`; the text part as `@apostrophecms/email` derives
 * it (html-to-text: headings upper-cased, a link whose text is its address shown once, lines
 * wrapped at 80). The link is the login URL with `reset` (a cuid2 id) and `email`
 * (password_reset). The template itself is English; the subject comes in every shipped language.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import nunjucks from 'nunjucks';
import { repsOf } from '../locales.js';
import { host, person, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';
import { wrap } from './horde.js';

const VIEW = 'modules/@apostrophecms/login/views/passwordResetEmail.html';
const I18N = 'modules/@apostrophecms/i18n/i18n';

// cuid2's createId(): a lower-case letter, then 23 base-36 characters.
const cuid2 = (r: Rng): string => r.chars('abcdefghijklmnopqrstuvwxyz', 1) + r.chars('0123456789abcdefghijklmnopqrstuvwxyz', 23);

const decode = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** html-to-text's reading of the mail's simple markup (h4, p, a), as the email module configures it. */
const toText = (html: string): string =>
  [...html.matchAll(/<(h\d|p)>([\s\S]*?)<\/\1>/g)].map((m) => {
    const inner = (m[2] ?? '').replace(/<a href="([^"]*)">([\s\S]*?)<\/a>/g, (_x, href: string, text: string) => (decode(text) === decode(href) ? text : `${text} [${href}]`));
    const flat = decode(inner.replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim();
    return wrap((m[1] ?? '').startsWith('h') ? flat.toUpperCase() : flat, 80);
  }).join('\n\n');

export const apostrophe: Adapter = {
  product: 'apostrophe',
  packages: [{ npm: 'apostrophe@4.32.2' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const view = readFileSync(join(root, VIEW), 'utf8');
    const env = new nunjucks.Environment(undefined, { autoescape: true });
    const langs = readdirSync(join(root, I18N)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    return langs.flatMap((lang) => {
      const strings = JSON.parse(readFileSync(join(root, I18N, `${lang}.json`), 'utf8')) as Record<string, string>;
      const subjectFormat = strings.passwordResetRequest;
      if (subjectFormat === undefined) throw new Error(`passwordResetRequest missing in ${I18N}/${lang}.json`);
      return repsOf(reps * 2).map((n): Rendered => {
        const r = rng(`reset:${lang}:${n}`);
        const user = person(r);
        const site = host(r);
        const address = `${user.username}@inbox.test`;
        const parsed = new URL(r.pick(['/login', '/login', '/admin/login']), `https://${site}`);
        parsed.searchParams.append('reset', cuid2(r));
        parsed.searchParams.append('email', address);
        const url = parsed.toString();
        const html = env.renderString(view, { data: { user: { title: r.chance(0.7) ? user.full : user.username }, url, site: parsed.hostname } });
        return {
          template: 'password_reset',
          lang,
          subject: subjectFormat.replace(/\{\{\s*site\s*\}\}/g, parsed.hostname),
          html,
          text: toText(html),
          secret: { kind: 'magic_link', value: url, link_purpose: 'password_reset' },
          source: `${VIEW} + ${I18N}/${lang}.json`,
        };
      });
    });
  },
};
