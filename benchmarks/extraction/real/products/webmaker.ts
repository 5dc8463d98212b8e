/**
 * Mozilla Webmaker (npm `webmaker-mailroom`): its mails rendered as the package's `render()` does:
 * `templates/<name>/index.html` through nunjucks (autoescaped, with its `gettext` and `instantiate`
 * filters), between `base/header.html` and `base/footer.html`, the subject (or `recurringSubject`)
 * from `templates/<name>/index.js` looked up in the language's strings and rendered with the data.
 * Strings are the `message`s of `locale/<lang>/*.json`, falling back to en_US. Rendered in every
 * locale that ships the template's strings (at least half of its keys). Secrets: the login link with the proquint `token`
 * (sign_in; the key the mail also asks to copy is the token, otp, in `also`), the reset link's
 * `resetCode` (password_reset). The welcome and donation receipts carry none (amounts,
 * transaction ids, addresses as decoys).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import nunjucks from 'nunjucks';
import { repsOf } from '../locales.js';
import { alnum, date, person, type Rng } from '../random.js';
import type { Adapter, Rendered, Secret } from '../types.js';

interface Meta { subject: string; recurringSubject?: string }

const strings = (root: string, locale: string): Record<string, string> => {
  const dir = join(root, 'locale', locale);
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    for (const [k, v] of Object.entries(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, { message?: string }>)) if (v.message) out[k] = v.message;
  }
  return out;
};

// Webmaker's login keys are proquints: consonant-vowel quintuplets, two joined by a dash.
const proquint = (r: Rng): string => Array.from({ length: 2 }, () => [0, 1, 2, 3, 4].map((i) => r.pick(i % 2 === 0 ? [...'bdfghjklmnprstvz'] : [...'aiou'])).join('')).join('-');

interface Spec { readonly template: string; readonly strings: string; readonly data: (r: Rng) => { data: Record<string, unknown>; secret?: Secret; also?: Secret[] } }

const login = (r: Rng): ReturnType<Spec['data']> => {
  const username = person(r).username.replace(/\./g, '');
  const token = proquint(r);
  const loginUrl = `https://${r.pick(['login.webmaker.org', 'login.webmaker.org', 'id.webmaker.org'])}/?uid=${username}&token=${token}`;
  return { data: { username, token, loginUrl }, secret: { kind: 'magic_link', value: loginUrl, link_purpose: 'sign_in' }, also: [{ kind: 'otp', value: token }] };
};
const money = (r: Rng): string => r.pick(['$', 'CA$', '€', '£']) + String(r.pick([5, 10, 20, 25, 35, 50, 100, 250]));
const SPECS: readonly Spec[] = [
  { template: 'login_request', strings: 'login_request.json', data: login },
  { template: 'account_confirmation', strings: 'login_request.json', data: login },
  {
    template: 'reset_request',
    strings: 'reset_request.json',
    data: (r) => {
      const resetUrl = `https://login.webmaker.org/?uid=${person(r).username.replace(/\./g, '')}&resetCode=${alnum(r, 48)}`;
      return { data: { resetUrl }, secret: { kind: 'magic_link', value: resetUrl, link_purpose: 'password_reset' } };
    },
  },
  { template: 'user_created', strings: 'user_created.json', data: (r) => ({ data: { username: person(r).username.replace(/\./g, '') } }) },
  {
    template: 'stripe_charge_succeeded_2015',
    strings: 'strings.json',
    data: (r) => ({ data: { amount: money(r), recurring_donation: r.chance(0.4), transaction_id: `ch_${alnum(r, 24)}`, timestamp: date(r).toUTCString() } }),
  },
  {
    template: 'thunderbird_donation',
    strings: 'strings.json',
    data: (r) => ({ data: { name: person(r).full, amount: money(r), recurring_donation: r.chance(0.4), address: `${r.int(1, 999)} ${r.pick(['Adelaide St W', 'Main Street', 'Rue Saint-Denis'])}`, city: r.pick(['Toronto', 'Portland', 'Montréal']), state: r.pick(['ON', 'OR', 'QC']), zipcode: r.pick([`M5V ${r.int(1, 9)}R${r.int(1, 9)}`, String(r.int(10000, 99999))]), country: r.pick(['Canada', 'United States']) } }),
  },
];

export const webmaker: Adapter = {
  product: 'webmaker',
  packages: [{ npm: 'webmaker-mailroom@2.1.11' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const req = createRequire(join(root, 'index.js'));
    const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(root, { noCache: true }), { autoescape: true });
    env.addFilter('instantiate', function (this: { getVariables: () => object }, input: string) { return nunjucks.renderString(input, this.getVariables()); });
    env.addFilter('gettext', function (this: { lookup: (k: string) => (s: string) => string }, input: string) { return this.lookup('gettext')(input); });
    const header = env.render('base/header.html');
    const footer = env.render('base/footer.html');
    const fallback = strings(root, 'en_US');
    const locales = readdirSync(join(root, 'locale')).sort();
    return SPECS.flatMap((s) => {
      const meta = req(`./templates/${s.template}/index.js`) as Meta;
      const keys = [...readFileSync(join(root, 'templates', s.template, 'index.html'), 'utf8').matchAll(/'(\w+)' \| gettext/g)].map((m) => m[1] ?? '');
      // A locale whose file no longer has the template's keys would send the English text: skip it.
      const langs = locales.filter((l) => existsSync(join(root, 'locale', l, s.strings)) && (l === 'en_US' || keys.filter((k) => k in strings(root, l)).length * 2 >= keys.length));
      return langs.flatMap((locale) => {
        const table = { ...fallback, ...strings(root, locale) };
        const gettext = (k: string): string => table[k] ?? k;
        return repsOf(reps * (locale === 'en_US' ? 3 : 1)).map((n): Rendered => {
          const { data, secret, also } = s.data(rng(`${s.template}:${locale}:${n}`));
          const html = header + env.render(`templates/${s.template}/index.html`, { ...data, gettext, locale: locale.replace('_', '-') }) + footer;
          const subjectSrc = data.recurring_donation === true && meta.recurringSubject !== undefined ? meta.recurringSubject : meta.subject;
          return {
            template: s.template,
            lang: locale.replace('_', '-'),
            subject: nunjucks.renderString(gettext(subjectSrc), data),
            html,
            fromName: s.template.includes('donation') || s.template.includes('stripe') ? 'Mozilla' : 'Webmaker',
            ...(secret !== undefined ? { secret } : {}),
            ...(also !== undefined ? { also } : {}),
            source: `templates/${s.template}/index.html + index.js + locale/${locale}/${s.strings}`,
          };
        });
      });
    });
  },
};
