/**
 * django-invitations (Debian python3-django-invitations): `invitations/email/email_invite_*.txt`,
 * translated by `invitations/locale/<lang>/LC_MESSAGES/django.po`; the secret is `invite_url`
 * (the accept-invite view with the invitation's 64-character key).
 */
import { join } from 'node:path';
import { djangoRenderer } from '../django.js';
import { readCatalog } from '../gettext.js';
import { langTag, localesWith, repsOf } from '../locales.js';
import { host, person, siteName, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const PY = 'usr/lib/python3/dist-packages/invitations';

const renderOne = (root: string, locale: string, r: Rng): Rendered => {
  const cat = locale === 'en' ? new Map<string, string>() : readCatalog(join(root, PY, 'locale', locale, 'LC_MESSAGES', 'django.po'));
  const django = djangoRenderer([join(root, PY, 'templates')], cat, false);
  const site = siteName(r);
  const key = r.chars('abcdefghijklmnopqrstuvwxyz0123456789', 64);
  const url = `https://${host(r, site)}${r.pick(['/invitations', '/en/invitations', ''])}/accept-invite/${key}`;
  const vars = { site_name: site, email: `${person(r).username}@inbox.test`, invite_url: url, key, inviter: person(r).full };
  return {
    template: 'email_invite',
    lang: langTag(locale),
    subject: django.file('invitations/email/email_invite_subject.txt', vars).trim(),
    text: django.file('invitations/email/email_invite_message.txt', vars),
    fromName: site,
    secret: { kind: 'magic_link', value: url, link_purpose: 'invite' },
    source: `${PY}/templates/invitations/email/email_invite_message.txt + locale/${locale}/LC_MESSAGES/django.po`,
  };
};

export const djangoInvitations: Adapter = {
  product: 'django-invitations',
  packages: [{ deb: 'python3-django-invitations' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const locales = ['en', ...localesWith(join(root, PY, 'locale'), 'LC_MESSAGES/django.po')];
    return locales.flatMap((locale) => repsOf(reps + 1).map((n) => renderOne(root, locale, rng(`invite:${locale}:${n}`))));
  },
};
