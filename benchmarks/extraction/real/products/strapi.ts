/**
 * Strapi users & permissions (npm `@strapi/plugin-users-permissions`): the default
 * `reset_password` and `email_confirmation` templates the plugin stores at bootstrap
 * (`server/src/bootstrap/index.js`: `object` is the subject, `message` the body, lodash
 * `<%= NAME %>` placeholders), sent as the plugin sends them: the same text as text and HTML part.
 * The secret is the link `<%= URL %>?code=<%= TOKEN %>` (128 hex, password_reset) or
 * `<%= URL %>?confirmation=<%= CODE %>` (40 hex, verify_email).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { hex, host } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const FILE = 'server/src/bootstrap/index.js';

const templateOf = (src: string, name: string): { object: string; message: string } => {
  const block = new RegExp(`\\n\\s*${name}: \\{[\\s\\S]*?object: '([^']*)',\\s*message: \`([\\s\\S]*?)\`,`).exec(src);
  if (block === null) throw new Error(`${name} not found in ${FILE}`);
  return { object: block[1] ?? '', message: block[2] ?? '' };
};

/** lodash `template` with `<%= NAME %>` only, as the plugin's defaults use it. */
const fill = (tpl: string, vars: Record<string, string>): string => tpl.replace(/<%=\s*([\w.]+)\s*%>/g, (m, k: string) => vars[k] ?? m);

export const strapi: Adapter = {
  product: 'strapi',
  packages: [{ npm: '@strapi/plugin-users-permissions@5.54.0' }],
  render: ({ roots, rng, reps }) => {
    const src = readFileSync(join(roots[0] ?? '', FILE), 'utf8');
    return (['reset_password', 'email_confirmation'] as const).flatMap((template) => {
      const t = templateOf(src, template);
      return repsOf(reps * 5).map((n): Rendered => {
        const r = rng(`${template}:${n}`);
        const server = `https://${r.pick(['api.', 'cms.', 'backend.'])}${host(r).replace(/^(www|app|portal|accounts|mail)\./, '')}`;
        const vars: Record<string, string> = template === 'reset_password'
          ? { URL: `https://${host(r)}${r.pick(['/reset-password', '/auth/reset', '/account/new-password'])}`, TOKEN: hex(r, 128) }
          : { URL: `${server}/api/auth/email-confirmation`, CODE: hex(r, 40) };
        const body = fill(t.message, vars);
        const value = template === 'reset_password' ? `${vars.URL ?? ''}?code=${vars.TOKEN ?? ''}` : `${vars.URL ?? ''}?confirmation=${vars.CODE ?? ''}`;
        return {
          template,
          lang: 'en',
          subject: fill(t.object, {}),
          text: body,
          html: body,
          fromName: 'Administration Panel',
          secret: { kind: 'magic_link', value, link_purpose: template === 'reset_password' ? 'password_reset' : 'verify_email' },
          source: FILE,
        };
      });
    });
  },
};
