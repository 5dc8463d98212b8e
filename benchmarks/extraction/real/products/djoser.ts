/**
 * djoser (Debian python3-djoser): the django-templated-mail templates of `djoser/templates/email/`,
 * each with `subject`, `text_body` and `html_body` blocks (sent as text and HTML alternatives),
 * translated by `djoser/locale/<lang>/LC_MESSAGES/django.po`. The secret is `url`, built from the
 * configured `ACTIVATION_URL` / `PASSWORD_RESET_CONFIRM_URL` / `USERNAME_RESET_CONFIRM_URL` with the
 * user's base64 id and a Django token; the confirmation mails hold none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { djangoRenderer } from '../django.js';
import { readCatalog } from '../gettext.js';
import { langTag, localesWith, repsOf } from '../locales.js';
import { host, person, siteName, type Rng } from '../random.js';
import type { Adapter, LinkPurpose, Rendered } from '../types.js';

const PY = 'usr/lib/python3/dist-packages/djoser';

// Template, the setting its `url` comes from (as projects commonly set it), and the link's purpose.
const TEMPLATES: { name: string; urls?: string[]; purpose?: LinkPurpose }[] = [
  { name: 'activation', urls: ['activate/{uid}/{token}', '#/activate/{uid}/{token}', 'auth/activation/{uid}/{token}/'], purpose: 'verify_email' },
  { name: 'password_reset', urls: ['password/reset/confirm/{uid}/{token}', '#/password/reset/confirm/{uid}/{token}', 'reset-password?uid={uid}&token={token}'], purpose: 'password_reset' },
  { name: 'username_reset', urls: ['username/reset/confirm/{uid}/{token}', '#/username/reset/confirm/{uid}/{token}'], purpose: 'other' },
  { name: 'confirmation' },
  { name: 'password_changed_confirmation' },
  { name: 'username_changed_confirmation' },
];

const block = (src: string, name: string): string => new RegExp(`{%\\s*block ${name}\\s*%}([\\s\\S]*?){%\\s*endblock(?:\\s+\\w+)?\\s*%}`).exec(src)?.[1] ?? '';

// Django's default_token_generator: base36 timestamp, a dash, 32 hex characters.
const token = (r: Rng): string => `${r.int(1e9, 3e9).toString(36).slice(0, 6)}-${r.chars('0123456789abcdef', 32)}`;

const renderOne = (root: string, locale: string, t: (typeof TEMPLATES)[number], r: Rng): Rendered => {
  const cat = locale === 'en' ? new Map<string, string>() : readCatalog(join(root, PY, 'locale', locale, 'LC_MESSAGES', 'django.po'));
  const src = readFileSync(join(root, PY, 'templates', 'email', `${t.name}.html`), 'utf8');
  const site = siteName(r);
  const domain = host(r, site);
  const user = person(r);
  const uid = Buffer.from(String(r.int(1, 90000))).toString('base64url');
  const url = t.urls === undefined ? '' : r.pick(t.urls).replace('{uid}', uid).replace('{token}', token(r));
  const vars = { site_name: site, domain, protocol: 'https', url, uid, user: { get_username: user.username, email: `${user.username}@inbox.test` } };
  const text = djangoRenderer([], cat, false).string(block(src, 'text_body'), vars);
  const html = djangoRenderer([], cat, true).string(block(src, 'html_body'), vars);
  return {
    template: t.name,
    lang: langTag(locale),
    subject: djangoRenderer([], cat, false).string(block(src, 'subject'), vars).trim(),
    text,
    html: `<html><body>${html}</body></html>`,
    fromName: site,
    ...(t.purpose !== undefined ? { secret: { kind: 'magic_link', value: `https://${domain}/${url}`, link_purpose: t.purpose } } : {}),
    source: `${PY}/templates/email/${t.name}.html + locale/${locale}/LC_MESSAGES/django.po`,
  };
};

export const djoser: Adapter = {
  product: 'djoser',
  packages: [{ deb: 'python3-djoser' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const locales = ['en', ...localesWith(join(root, PY, 'locale'), 'LC_MESSAGES/django.po')];
    return locales.flatMap((locale) => TEMPLATES.flatMap((t) => repsOf(t.purpose ? reps : 1).map((n) => renderOne(root, locale, t, rng(`${t.name}:${locale}:${n}`)))));
  },
};
