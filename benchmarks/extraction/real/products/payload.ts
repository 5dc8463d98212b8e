/**
 * Payload CMS (npm `payload` and `@payloadcms/translations`): the forgot-password and
 * verification mails of `dist/auth/operations/forgotPassword.js` and
 * `dist/auth/sendVerificationEmail.js` (HTML only, as Payload sends them): each file's `html`
 * template literal and `subject` key, evaluated with `req.t` reading
 * `dist/languages/<lang>.js` of the translations package (`{{name}}` interpolation). The secret
 * is `forgotURL` (admin reset route with a 40-hex token, password_reset) or `verificationURL`
 * (`/<collection>/verify/<token>`, verify_email).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repsOf } from '../locales.js';
import { hex, host, siteName, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

type Strings = Record<string, Record<string, string>>;
type T = (key: string, vars?: Record<string, string>) => string;

const FILES = { forgot: 'dist/auth/operations/forgotPassword.js', verify: 'dist/auth/sendVerificationEmail.js' };

/** Payload's language keys (`bnBd`, `zhTw`, `rsLatin`) as tags. */
const tagOf = (key: string): string => ({ rs: 'sr', rsLatin: 'sr-Latn', zhTw: 'zh-TW', bnBd: 'bn-BD', bnIn: 'bn-IN' })[key] ?? key;

const translator = (strings: Strings, en: Strings): T => (key, vars = {}) => {
  const [ns = '', k = ''] = key.split(':');
  return (strings[ns]?.[k] || en[ns]?.[k] || key).replace(/\{\{(\w+)\}\}/g, (m, name: string) => vars[name] ?? m);
};

/** The `let html = \`…\`` template literal of a file, as a function of the names it uses. */
const htmlTemplate = (src: string, names: string[]): ((...args: unknown[]) => string) => {
  const literal = /let html = (`[\s\S]*?`);\n/.exec(src)?.[1];
  if (literal === undefined) throw new Error('html template literal not found');
  return new Function(...names, `return ${literal};`) as (...args: unknown[]) => string;
};

const subjectKey = (src: string): string => /let subject = req\.t\('([^']+)'\)/.exec(src)?.[1] ?? '';

/** Loads every language module (they are ES modules) and answers the renderer. */
const loadPayload = async (roots: readonly string[]): Promise<(rng: (key: string) => Rng, reps: number) => Rendered[]> => {
  const [core = '', tr = ''] = roots;
  const dir = join(tr, 'dist', 'languages');
  const langs = readdirSync(dir).filter((f) => /^[a-zA-Z]+\.js$/.test(f)).map((f) => f.replace('.js', '')).sort();
  const modules = new Map<string, Strings>();
  for (const l of langs) {
    const mod = (await import(pathToFileURL(join(dir, `${l}.js`)).href)) as Record<string, Strings>;
    modules.set(l, mod[`${l}Translations`] ?? {});
  }
  const forgotSrc = readFileSync(join(core, FILES.forgot), 'utf8');
  const verifySrc = readFileSync(join(core, FILES.verify), 'utf8');
  const forgot = htmlTemplate(forgotSrc, ['req', 'forgotURL']);
  const verify = htmlTemplate(verifySrc, ['req', 'config', 'verificationURL']);
  const en = modules.get('en') ?? {};
  return (rng, reps) =>
    langs.flatMap((l) => {
      const req = { t: translator(modules.get(l) ?? {}, en) };
      return (['forgot_password', 'verify_email'] as const).flatMap((template) =>
        repsOf(reps).map((n): Rendered => {
          const r = rng(`${template}:${l}:${n}`);
          const serverURL = `https://${r.pick(['cms.', 'admin.', ''])}${host(r).replace(/^(www|app|portal|accounts|mail)\./, '')}`;
          const admin = r.pick(['/admin', '/admin', '/dashboard']);
          const url = template === 'forgot_password' ? `${serverURL}${admin}/reset/${hex(r, 40)}` : `${serverURL}${admin}/${r.pick(['users', 'customers', 'members'])}/verify/${hex(r, 40)}`;
          const html = template === 'forgot_password' ? forgot(req, url) : verify(req, { serverURL }, url);
          const file = template === 'forgot_password' ? FILES.forgot : FILES.verify;
          return {
            template,
            lang: tagOf(l),
            subject: req.t(subjectKey(template === 'forgot_password' ? forgotSrc : verifySrc)),
            html,
            fromName: siteName(r),
            secret: { kind: 'magic_link', value: url, link_purpose: template === 'forgot_password' ? 'password_reset' : 'verify_email' },
            source: `${file} + @payloadcms/translations dist/languages/${l}.js`,
          };
        }),
      );
    });
};

export const payload: Adapter = {
  product: 'payload',
  packages: [{ npm: 'payload@3.90.2' }, { npm: '@payloadcms/translations@3.90.2' }],
  render: async ({ roots, rng, reps }) => (await loadPayload(roots))(rng, reps),
};
