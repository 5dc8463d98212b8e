/**
 * accounts-js (npm `@accounts/server`, `@accounts/password`, `@accounts/magic-link`): the default
 * `emailTemplates` of `@accounts/server/lib/utils/email.js`, run as shipped (subject, text and HTML
 * functions of the user and the link), for every `prepareMail(…)` call of the password and
 * magic-link services, read from their `lib/*.js` with the path fragment each passes
 * (`verify-email`, `reset-password`, `enroll-account`, `magiclink`). The link is
 * `defaultCreateTokenizedUrl`'s `${siteUrl}/${pathFragment}/${token}` with `generateRandomToken()`'s
 * 86 hex characters; the password-changed mail carries none. English only.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { hex, host, person } from '../random.js';
import type { Adapter, LinkPurpose, Rendered } from '../types.js';

interface Template { subject: (user: object) => string; text: (user: object, url: string) => string; html?: (user: object, url: string) => string }
interface Call { readonly template: string; readonly fragment: string; readonly withToken: boolean; readonly file: string }

const PURPOSE: Record<string, LinkPurpose> = { verifyEmail: 'verify_email', resetPassword: 'password_reset', enrollAccount: 'invite', magicLink: 'sign_in' };
const FILES = ['lib/accounts-password.js', 'lib/accounts-magic-link.js'];

/** Each distinct `prepareMail(to, token, user, 'fragment', …emailTemplates.<name>, …)` call of the services. */
const calls = (roots: readonly string[]): Call[] => {
  const seen = new Map<string, Call>();
  roots.slice(1).forEach((root, i) => {
    const file = FILES[i] ?? '';
    const src = readFileSync(join(root, file), 'utf8');
    for (const m of src.matchAll(/prepareMail\(\w+, (\w+|''), [^;]*?, '([^']*)', this\.server\.options\.emailTemplates\.(\w+),/g)) {
      seen.set(m[3] ?? '', { template: m[3] ?? '', fragment: m[2] ?? '', withToken: m[1] !== "''", file });
    }
  });
  return [...seen.values()];
};

export const accountsJs: Adapter = {
  product: 'accounts-js',
  packages: [{ npm: '@accounts/server@0.33.1' }, { npm: '@accounts/password@0.32.2' }, { npm: '@accounts/magic-link@0.1.1' }],
  render: ({ roots, rng, reps }) => {
    const req = createRequire(join(roots[0] ?? '', 'package.json'));
    const templates = (req('./lib/utils/email.js') as { emailTemplates: Record<string, Template> }).emailTemplates;
    const found = calls(roots);
    if (found.length < 4) throw new Error(`only ${found.length} prepareMail calls found`);
    return found.flatMap((c) => repsOf(c.withToken ? reps * 3 : reps).map((n): Rendered => {
      const r = rng(`${c.template}:${n}`);
      const t = templates[c.template];
      if (t === undefined) throw new Error(`no emailTemplates.${c.template}`);
      const siteUrl = `https://${host(r)}${r.pick(['', '/app', '/auth'])}`;
      const token = c.withToken ? hex(r, 86) : '';
      const url = `${siteUrl}/${c.fragment}/${token}`;
      const user = { id: hex(r, 24), username: person(r).username, emails: [{ address: `${person(r).username}@inbox.test`, verified: false }] };
      const purpose = PURPOSE[c.template];
      return {
        template: c.template,
        lang: 'en',
        subject: t.subject(user),
        text: t.text(user, url),
        ...(t.html !== undefined ? { html: t.html(user, url) } : {}),
        fromName: 'accounts-js',
        ...(c.withToken && purpose !== undefined ? { secret: { kind: 'magic_link', value: url, link_purpose: purpose } } : {}),
        source: `@accounts/server lib/utils/email.js (emailTemplates.${c.template}) + ${c.file}`,
      };
    }));
  },
};
