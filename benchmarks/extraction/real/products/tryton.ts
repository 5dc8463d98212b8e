/**
 * Tryton web users (Debian tryton-modules-web-user): the Genshi reports
 * `trytond/modules/web_user/email_validation.html` and `email_reset_password.html` (sent as HTML,
 * the report's name as subject), their text nodes translated as Tryton's report translator does,
 * from `locale/<lang>.po` (contexts `report:web.user.<report>:` and
 * `model:ir.action,name:report_<report>`). The secret is `get_email_validation_url()` (verify_email)
 * or `get_email_reset_password_url()` (password_reset): the configured URL with `token` (64 hex)
 * and, for the reset, `email` appended in sorted order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gettext, readCatalog, type Catalog } from '../gettext.js';
import { langTag, repsOf } from '../locales.js';
import { hex, host, person, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const MOD = 'usr/lib/python3/dist-packages/trytond/modules/web_user';
const REPORTS = { email_validation: 'verify_email', email_reset_password: 'password_reset' } as const;

/** Each text run between tags (and between `${…}` expressions) replaced by its translation, whitespace kept. */
export const translateGenshi = (src: string, translate: (msgid: string) => string): string =>
  src.replace(/>([^<]+)</g, (_m, text: string) =>
    `>${text.split(/(\$\{[^}]*\})/).map((part) => {
      if (part.startsWith('${')) return part;
      const id = part.replace(/\s+/g, ' ').trim();
      if (id === '') return part;
      const lead = /^\s*/.exec(part)?.[0] ?? '';
      const tail = /\s*$/.exec(part)?.[0] ?? '';
      return `${lead}${translate(id)}${tail}`;
    }).join('')}<`);

const renderOne = (src: string, cat: Catalog, lang: string, report: keyof typeof REPORTS, r: Rng): Rendered => {
  const email = `${person(r).username}@inbox.test`;
  const base = `https://${host(r)}${r.pick(['/web/', '/account/', '/'])}${report === 'email_validation' ? r.pick(['validate', 'email/validate']) : r.pick(['reset-password', 'password/reset'])}`;
  const token = hex(r, 64);
  const url = report === 'email_validation' ? `${base}?token=${token}` : `${base}?email=${encodeURIComponent(email)}&token=${token}`;
  const translated = translateGenshi(src, (id) => gettext(cat, id, `report:web.user.${report}:`));
  const html = translated
    .replace(/\s*xmlns:py="[^"]*"/, '')
    .replace(/<\/?py:for[^>]*>\n?/g, '')
    .replace(/\$\{user\.email\}/g, email)
    .replace(/\$\{user\.get_\w+_url\(\)\}/g, url.replace(/&/g, '&amp;'));
  return {
    template: report,
    lang: langTag(lang),
    subject: gettext(cat, report === 'email_validation' ? 'Email Validation' : 'Reset Password', `model:ir.action,name:report_${report}`),
    html,
    secret: { kind: 'magic_link', value: url, link_purpose: REPORTS[report] },
    source: `${MOD}/${report}.html + locale/${lang}.po`,
  };
};

export const tryton: Adapter = {
  product: 'tryton',
  packages: [{ deb: 'tryton-modules-web-user' }],
  render: ({ roots, rng, reps }) => {
    const root = join(roots[0] ?? '', MOD);
    const langs = ['en', ...readdirSync(join(root, 'locale')).filter((f) => f.endsWith('.po')).map((f) => f.replace('.po', '')).sort()];
    return langs.flatMap((lang) => {
      const cat = lang === 'en' ? new Map<string, string>() : readCatalog(join(root, 'locale', `${lang}.po`));
      return (Object.keys(REPORTS) as (keyof typeof REPORTS)[]).flatMap((report) => {
        const src = readFileSync(join(root, `${report}.html`), 'utf8');
        return repsOf(reps).map((n) => renderOne(src, cat, lang, report, rng(`${report}:${lang}:${n}`)));
      });
    });
  },
};
