/**
 * django-allauth (Debian python3-django-allauth): the account mails under
 * `allauth/templates/account/email/`, Django templates translated by `allauth/locale/<lang>/LC_MESSAGES/django.mo`.
 * The secret is the template variable `activate_url` (verify_email) or `password_reset_url`
 * (password_reset); `unknown_account` carries only a sign-up link (label none).
 */
import { join } from 'node:path';
import { djangoRenderer } from '../django.js';
import { readCatalog } from '../gettext.js';
import { langTag, localesWith, repsOf } from '../locales.js';
import { alnum, base64url, digits, host, person, siteName, urlsafe, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const PY = 'usr/lib/python3/dist-packages/allauth';

// The key allauth signs for an e-mail confirmation (django.core.signing: pk, base62 time, signature).
const confirmationKey = (r: Rng): string => `${base64url(r, 1).slice(0, 2)}:${alnum(r, 6)}:${urlsafe(r, 43)}`;
// Django's password-reset token: base36 timestamp, a dash, 32 hex-like characters.
const resetPath = (r: Rng): string => `${r.int(1, 5000).toString(36)}-${r.int(1e6, 9e6).toString(36)}-${r.chars('0123456789abcdef', 32)}`;

const TEMPLATES = [
  { name: 'email_confirmation', subject: 'email_confirmation_subject.txt', body: 'email_confirmation_message.txt', purpose: 'verify_email' as const },
  { name: 'password_reset_key', subject: 'password_reset_key_subject.txt', body: 'password_reset_key_message.txt', purpose: 'password_reset' as const },
  { name: 'unknown_account', subject: 'unknown_account_subject.txt', body: 'unknown_account_message.txt', purpose: undefined },
];

const renderOne = (root: string, locale: string, t: (typeof TEMPLATES)[number], r: Rng): Rendered => {
  const cat = locale === 'en' ? new Map<string, string>() : readCatalog(join(root, PY, 'locale', locale, 'LC_MESSAGES', 'django.mo'));
  const django = djangoRenderer([join(root, PY, 'templates')], cat, false);
  const site = siteName(r);
  const domain = host(r, site);
  const user = person(r);
  const link = t.purpose === 'verify_email' ? `https://${domain}/accounts/confirm-email/${confirmationKey(r)}/` : `https://${domain}/accounts/password/reset/key/${resetPath(r)}/`;
  const vars = {
    current_site: { name: site, domain },
    user_display: user.username,
    activate_url: link,
    password_reset_url: link,
    username: r.chance(0.6) ? user.username : '',
    email: `${user.username}@inbox.test`,
    signup_url: `https://${domain}/accounts/signup/`,
    key: digits(r, 4),
  };
  const subject = `[${site}] ${django.file(`account/email/${t.subject}`, vars).trim()}`;
  return {
    template: t.name,
    lang: langTag(locale),
    subject,
    text: django.file(`account/email/${t.body}`, vars),
    fromName: site,
    ...(t.purpose !== undefined ? { secret: { kind: 'magic_link', value: link, link_purpose: t.purpose } } : {}),
    source: `${PY}/templates/account/email/${t.body} + locale/${locale}/LC_MESSAGES/django.mo`,
  };
};

export const allauth: Adapter = {
  product: 'allauth',
  packages: [{ deb: 'python3-django-allauth' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const locales = localesWith(join(root, PY, 'locale'), 'LC_MESSAGES/django.mo');
    return locales.flatMap((locale) => TEMPLATES.flatMap((t) => repsOf(reps).map((n) => renderOne(root, locale, t, rng(`${t.name}:${locale}:${n}`)))));
  },
};
