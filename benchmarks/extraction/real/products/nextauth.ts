/**
 * NextAuth.js (npm `next-auth`, v4): the sign-in mail of the Email provider. The `html` and `text`
 * functions and the subject of `providers/email.js` are cut out of the file and run as shipped; the
 * link is built as `core/lib/email/signin.js` builds it: `<url>/callback/<provider>?callbackUrl=…&token=<64 hex>&email=…`.
 * The product is `nextauth`, as in the shared corpus, so it is never sealed. English only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { hex, host, person } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const FILE = 'providers/email.js';

const fn = (src: string, name: string): ((o: object) => string) => {
  const body = new RegExp(`\\nfunction ${name}\\([\\s\\S]*?\\n}(?:\\n|$)`).exec(src)?.[0];
  if (body === undefined) throw new Error(`${name} not found in ${FILE}`);
  return new Function(`${body}\nreturn ${name};`)() as (o: object) => string;
};

export const nextauth: Adapter = {
  product: 'nextauth',
  packages: [{ npm: 'next-auth@4.24.15' }],
  render: ({ roots, rng, reps }) => {
    const src = readFileSync(join(roots[0] ?? '', FILE), 'utf8');
    const html = fn(src, 'html');
    const text = fn(src, 'text');
    const subject = /subject: `([^`]*)`/.exec(src)?.[1];
    if (subject === undefined) throw new Error(`subject not found in ${FILE}`);
    return repsOf(reps * 5).map((n): Rendered => {
      const r = rng(`signin:${n}`);
      const site = host(r);
      const origin = `https://${site}`;
      const params = new URLSearchParams({ callbackUrl: `${origin}${r.pick(['/', '/dashboard', '/account?tab=billing'])}`, token: hex(r, 64), email: `${person(r).username}@inbox.test` });
      const url = `${origin}${r.pick(['/api/auth', '/auth'])}/callback/${r.pick(['email', 'email', 'resend'])}?${params.toString()}`;
      const theme = { colorScheme: 'auto', brandColor: r.pick(['#346df1', '#222', '#0a7']), buttonText: '#fff' };
      return {
        template: 'email_signin',
        lang: 'en',
        subject: subject.replace('${host}', site),
        text: text({ url, host: site }),
        html: html({ url, host: site, theme }),
        fromName: 'NextAuth',
        secret: { kind: 'magic_link', value: url, link_purpose: 'sign_in' },
        source: FILE,
      };
    });
  },
};
