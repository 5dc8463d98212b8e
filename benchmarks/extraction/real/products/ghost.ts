/**
 * Ghost (npm `ghost`): the members' sign-in, sign-up, subscribe and email-update mails. The
 * subject and text part come from `getSubject`/`getText` in `core/server/services/members/api.js`
 * and the HTML part from `core/server/services/members/emails/<type>.js`, all three run as Ghost
 * ships them, with `t()` looking strings up in `locales/<lang>/ghost.json` of the bundled
 * `@tryghost/i18n` (`components/tryghost-i18n-*.tgz`, an empty string meaning untranslated).
 * The secret is `url` (the members magic link); the sign-in mail with a one-time code `otc` leads
 * with the code (label otp, the link in `also`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { base64url, digits, host, person, siteName, type Rng } from '../random.js';
import type { Adapter, LinkPurpose, Rendered } from '../types.js';

type T = (key: string, vars?: Record<string, unknown>) => string;
interface Mail {
  getSubject: (type: string, otc?: string) => string;
  getText: (url: string, type: string, email: string, otc?: string) => string;
}

const API = 'core/server/services/members/api.js';
const TYPES: { type: string; purpose: LinkPurpose; otc?: true }[] = [
  { type: 'signin', purpose: 'sign_in', otc: true },
  { type: 'signin', purpose: 'sign_in' },
  { type: 'signup', purpose: 'verify_email' },
  { type: 'signup-paid', purpose: 'sign_in' },
  { type: 'subscribe', purpose: 'verify_email' },
  { type: 'updateEmail', purpose: 'verify_email' },
];

/** i18next's `t` as Ghost configures it: `{name}` interpolation, untranslated strings fall back to the key. */
const translator = (strings: Record<string, string>): T => (key, vars = {}) =>
  (strings[key] || key).replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));

/** The `getSubject` and `getText` methods (and their helper) cut out of api.js and bound to a site. */
const mailFunctions = (root: string, t: T, site: string): Mail => {
  const src = readFileSync(join(root, API), 'utf8');
  const helper = /function trimLeadingWhitespace[\s\S]*?\n}\n/.exec(src)?.[0] ?? '';
  const methods = /(getSubject\(type, otc\) \{[\s\S]*?)\n\s*getHTML\(/.exec(src)?.[1] ?? '';
  if (helper === '' || methods === '') throw new Error(`getSubject/getText not found in ${API}`);
  const make = new Function('t', 'settingsCache', `${helper}\nreturn {${methods}};`) as (t: T, s: { get: (k: string) => string }) => Mail;
  return make(t, { get: () => site });
};

const unpackI18n = (root: string): string => {
  const dir = join(root, '..', 'i18n');
  if (!existsSync(join(dir, 'package', 'locales'))) {
    const tgz = readdirSync(join(root, 'components')).find((f) => f.startsWith('tryghost-i18n-'));
    if (tgz === undefined) throw new Error('components/tryghost-i18n-*.tgz not found');
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xzf', join(root, 'components', tgz), '-C', dir]);
  }
  return join(dir, 'package', 'locales');
};

const renderOne = (root: string, locales: string, lang: string, spec: (typeof TYPES)[number], r: Rng): Rendered => {
  const t = translator(JSON.parse(readFileSync(join(locales, lang, 'ghost.json'), 'utf8')) as Record<string, string>);
  const siteTitle = siteName(r);
  const siteDomain = host(r, siteTitle);
  const siteUrl = `https://${siteDomain}/`;
  const email = `${person(r).username}@inbox.test`;
  const action = spec.type === 'signup-paid' ? 'signup-paid' : spec.type;
  const referrer = r.chance(0.6) ? `&r=${encodeURIComponent(`${siteUrl}${r.pick(['', 'blog/', 'membership/', '2025/03/a-long-read/'])}`)}` : '';
  const url = `${siteUrl}members/?token=${base64url(r, 24)}&action=${action}${referrer}`;
  const otc = spec.otc ? digits(r, 6) : undefined;
  const mail = mailFunctions(root, t, siteTitle);
  const req = createRequire(join(root, 'package.json'));
  const emailFile = spec.type === 'updateEmail' ? 'update-email' : spec.type;
  const html = (req(`./core/server/services/members/emails/${emailFile}.js`) as (o: object) => string)({ t, url, otc, email, siteTitle, accentColor: r.pick(['#15212A', '#FF1A75', '#3A6EA5']), siteDomain, siteUrl });
  const link = { kind: 'magic_link' as const, value: url, link_purpose: spec.purpose };
  return {
    template: spec.otc ? 'signin_otc' : spec.type,
    lang,
    subject: mail.getSubject(spec.type, otc),
    text: mail.getText(url, spec.type, email, otc),
    html,
    fromName: siteTitle,
    ...(otc !== undefined ? { secret: { kind: 'otp', value: otc }, also: [link] } : { secret: link }),
    source: `${API} + core/server/services/members/emails/${emailFile}.js + @tryghost/i18n locales/${lang}/ghost.json`,
  };
};

export const ghost: Adapter = {
  product: 'ghost',
  packages: [{ npm: 'ghost@6.65.0' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const locales = unpackI18n(root);
    const langs = readdirSync(locales).filter((l) => existsSync(join(locales, l, 'ghost.json'))).sort();
    return langs.flatMap((lang) => TYPES.flatMap((spec) => repsOf(spec.type === 'signin' ? reps : 1).map((n) => renderOne(root, locales, lang, spec, rng(`${spec.type}${spec.otc ? '-otc' : ''}:${lang}:${n}`)))));
  },
};
