/**
 * Saltcorn (npm `@saltcorn/server`): the password mails of `auth/resetpw.js`, run as shipped
 * (`generate_email`, with `getState().getConfig` answering the site name and base URL) for its three
 * cases: the user's own reset request, a reset the administrator asks for, and the welcome of an
 * account the administrator created. `req.__` looks the phrase up in `locales/<lang>.json` and fills
 * `%s` as i18n does. The link is `get_reset_link`'s `<base>auth/reset?token=<uuid v4>&email=…`
 * (password_reset; invite for the created account).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { sprintf } from '../php.js';
import { email, host, person, siteName, uuid } from '../random.js';
import type { Adapter, LinkPurpose, Rendered } from '../types.js';

const FILE = 'auth/resetpw.js';

type Generate = (link: string, user: { email: string }, req: { __: (p: string, ...a: string[]) => string }, options?: object) => { subject: string; text: string; html: string };

/** resetpw.js evaluated with its four requires answered; only `generate_email` is used. */
const load = (root: string, config: Record<string, string>): Generate => {
  const state = { getConfig: (k: string, d?: string) => config[k] ?? d };
  const modules: Record<string, unknown> = {
    '@saltcorn/data/db/state': { getState: () => state },
    '@saltcorn/data/models/email': {},
    '../routes/utils': {},
    '@saltcorn/data/models/view': {},
  };
  const module = { exports: {} as { generate_email?: Generate } };
  new Function('module', 'exports', 'require', readFileSync(join(root, FILE), 'utf8'))(module, module.exports, (id: string) => {
    if (!(id in modules)) throw new Error(`${FILE} requires ${id}`);
    return modules[id];
  });
  if (module.exports.generate_email === undefined) throw new Error(`generate_email not exported by ${FILE}`);
  return module.exports.generate_email;
};

const CASES: readonly { template: string; options: object; purpose: LinkPurpose }[] = [
  { template: 'reset_request', options: {}, purpose: 'password_reset' },
  { template: 'reset_from_admin', options: { from_admin: true }, purpose: 'password_reset' },
  { template: 'account_created', options: { creating: true }, purpose: 'invite' },
];

export const saltcorn: Adapter = {
  product: 'saltcorn',
  packages: [{ npm: '@saltcorn/server@1.6.2' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const langs = readdirSync(join(root, 'locales')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    return langs.flatMap((lang) => {
      const phrases = JSON.parse(readFileSync(join(root, 'locales', `${lang}.json`), 'utf8')) as Record<string, string>;
      const req = { __: (p: string, ...a: string[]) => sprintf(phrases[p] || p, ...a) };
      return CASES.flatMap((c) => repsOf(reps).map((n): Rendered => {
        const r = rng(`${c.template}:${lang}:${n}`);
        const site = siteName(r);
        const base = `https://${host(r, site)}/`;
        const generate = load(root, { site_name: site, ...(r.chance(0.7) ? { base_url: base } : {}) });
        const user = { email: email(r, person(r).username) };
        const link = `${base}auth/reset?token=${uuid(r)}&email=${encodeURIComponent(user.email)}`;
        const mail = generate(link, user, req, c.options);
        return {
          template: c.template,
          lang,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          fromName: site,
          secret: { kind: 'magic_link', value: link, link_purpose: c.purpose },
          source: `${FILE} (generate_email) + locales/${lang}.json`,
        };
      }));
    });
  },
};
