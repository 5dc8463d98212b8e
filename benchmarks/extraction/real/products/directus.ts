/**
 * Directus (npm `@directus/api`): the Liquid mail templates of `dist/services/mail/templates/`
 * (`password-reset`, `user-invitation`, `user-registration`, each in the `base` layout), rendered
 * with liquidjs and the data `dist/services/users.js` passes (`url`, `email`, project settings);
 * subjects are that file's defaults. HTML only, as Directus sends them. The secret is `url`: the
 * admin reset, accept-invite or register-verify route with a JWT `token`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Liquid } from 'liquidjs';
import { repsOf } from '../locales.js';
import { host, jwtLike, person, siteName } from '../random.js';
import type { Adapter, LinkPurpose, Rendered } from '../types.js';

const DIR = 'dist/services/mail/templates';
const USERS = 'dist/services/users.js';

const TEMPLATES: { name: string; path: string; purpose: LinkPurpose; subject: RegExp }[] = [
  { name: 'password-reset', path: 'admin/reset-password', purpose: 'password_reset', subject: /subject \? subject : "([^"]+)"/ },
  { name: 'user-invitation', path: 'admin/accept-invite', purpose: 'invite', subject: /subject \?\? "([^"]+)"/ },
  { name: 'user-registration', path: 'users/register/verify-email', purpose: 'verify_email', subject: /subject: "(Verify[^"]+)"/ },
];

export const directus: Adapter = {
  product: 'directus',
  packages: [{ npm: '@directus/api@39.2.1' }],
  render: async ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const users = readFileSync(join(root, USERS), 'utf8');
    const engine = new Liquid({ root: join(root, DIR), extname: '.liquid' });
    const out: Rendered[] = [];
    for (const t of TEMPLATES) {
      const subject = t.subject.exec(users)?.[1];
      if (subject === undefined) throw new Error(`subject of ${t.name} not found in ${USERS}`);
      for (const n of repsOf(reps * 5)) {
        const r = rng(`${t.name}:${n}`);
        const projectName = siteName(r);
        const publicUrl = `https://${host(r, projectName)}`;
        const url = `${publicUrl}/${t.path}?token=${jwtLike(r)}`;
        const u = person(r);
        const data = {
          url, email: `${u.username}@inbox.test`, first_name: u.first, last_name: u.last,
          projectName, projectColor: r.pick(['#171717', '#6644FF', '#2F80ED']), projectLogo: `${publicUrl}/admin/img/directus-white.png`, projectUrl: r.chance(0.5) ? publicUrl : '',
        };
        const html = (await engine.renderFile(t.name, data)) as string;
        out.push({ template: t.name, lang: 'en', subject, html, fromName: projectName, secret: { kind: 'magic_link', value: url, link_purpose: t.purpose }, source: `${DIR}/${t.name}.liquid + ${USERS}` });
      }
    }
    return out;
  },
};
