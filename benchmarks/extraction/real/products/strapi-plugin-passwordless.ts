/**
 * strapi-plugin-passwordless (npm): the login-link mail of `server/services/passwordless.js`
 * (`sendLoginLink`), from the default settings `server/bootstrap.js` stores (`object`,
 * `message_text`, `message_html`), filled as the plugin's lodash `template` does with `URL` (the
 * `confirmationUrl` setting: the server's URL or, as sites set it, their front end's login page)
 * and `CODE` (`nanoid(token_length)`, 20 URL-safe characters). The link is
 * `URL?loginToken=CODE` (sign_in). English only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { host, urlsafe } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const FILE = 'server/bootstrap.js';

/** The default settings' `key: \`…\`` or `key: '…'` value in bootstrap.js. */
const setting = (src: string, key: string): string => {
  const m = new RegExp(`\\b${key}: (?:\`([\\s\\S]*?)\`|'([^']*)')`).exec(src);
  if (m === null) throw new Error(`${key} not found in ${FILE}`);
  return m[1] ?? m[2] ?? '';
};

/** lodash `template` with `<%= NAME %>` only, as the defaults use it. */
const fill = (tpl: string, vars: Readonly<Record<string, string>>): string => tpl.replace(/<%=\s*([\w.]+)\s*%>/g, (m, k: string) => vars[k] ?? m);

export const strapiPluginPasswordless: Adapter = {
  product: 'strapi-plugin-passwordless',
  packages: [{ npm: 'strapi-plugin-passwordless@4.0.15' }],
  render: ({ roots, rng, reps }) => {
    const src = readFileSync(join(roots[0] ?? '', FILE), 'utf8');
    const t = { subject: setting(src, 'object'), text: setting(src, 'message_text'), html: setting(src, 'message_html'), from: setting(src, 'from_name') };
    return repsOf(reps * 5).map((n): Rendered => {
      const r = rng(`login:${n}`);
      const site = host(r).replace(/^[a-z]+\./, '');
      const vars = { URL: r.pick([`https://cms.${site}`, `https://api.${site}`, `https://${site}/auth/passwordless`, `https://www.${site}/login/callback`]), CODE: urlsafe(r, 20) };
      const link = `${vars.URL}?loginToken=${vars.CODE}`;
      return {
        template: 'login_link',
        lang: 'en',
        subject: fill(t.subject, vars),
        text: fill(t.text, vars),
        html: fill(t.html, vars),
        fromName: t.from,
        secret: { kind: 'magic_link', value: link, link_purpose: 'sign_in' },
        source: `${FILE} (default settings) + server/services/passwordless.js`,
      };
    });
  },
};
