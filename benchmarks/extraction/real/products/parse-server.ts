/**
 * Parse Server (npm `parse-server`): the default verification and password-reset mails,
 * `defaultVerificationEmail` and `defaultResetPasswordEmail` of `lib/Controllers/UserController.js`,
 * cut out of the file and run as shipped (text only, English). The secret is `link`, built as the
 * controller's `buildEmailLink` does from `verifyEmailURL` / `requestResetPasswordURL`
 * (`<publicServerURL>/apps/<appId>/…?token=<25 chars>`, or through `parseFrameURL`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { alnum, host, person, siteName, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const FILE = 'lib/Controllers/UserController.js';
type Mail = (o: { link: string; user: { get: (k: string) => string | undefined }; appName: string }) => { text: string; subject: string };

const method = (src: string, name: string): Mail => {
  const body = new RegExp(`\\n  ${name}\\(\\{[\\s\\S]*?\\n  \\}\\n`).exec(src)?.[0];
  if (body === undefined) throw new Error(`${name} not found in ${FILE}`);
  return (new Function(`return { ${body} };`) as () => Record<string, Mail>)()[name] as Mail;
};

const link = (r: Rng, path: string): string => {
  const server = `https://${host(r)}${r.pick(['/parse', ''])}`;
  const token = `token=${alnum(r, 25)}`;
  const destination = `${server}/apps/${r.pick(['myAppId', alnum(r, 12), 'prod'])}/${path}`;
  if (r.chance(0.3)) return `https://${host(r)}/frame.html?link=${encodeURIComponent(destination.replace(server, ''))}&${token}`;
  return `${destination}?${token}`;
};

export const parseServer: Adapter = {
  product: 'parse-server',
  packages: [{ npm: 'parse-server@9.10.0' }],
  render: ({ roots, rng, reps }) => {
    const src = readFileSync(join(roots[0] ?? '', FILE), 'utf8');
    const mails = { verify_email: method(src, 'defaultVerificationEmail'), password_reset: method(src, 'defaultResetPasswordEmail') };
    return (['verify_email', 'password_reset'] as const).flatMap((template) =>
      repsOf(reps * 5).map((n): Rendered => {
        const r = rng(`${template}:${n}`);
        const u = person(r);
        const appName = siteName(r);
        const url = link(r, template === 'verify_email' ? 'verify_email' : 'request_password_reset');
        const fields: Record<string, string | undefined> = { email: `${u.username}@inbox.test`, username: r.chance(0.5) ? u.username : undefined };
        const { text, subject } = mails[template]({ link: url, user: { get: (k) => fields[k] }, appName });
        return { template, lang: 'en', subject, text, fromName: appName, secret: { kind: 'magic_link', value: url, link_purpose: template }, source: FILE };
      }),
    );
  },
};
