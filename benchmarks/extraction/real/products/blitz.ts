/**
 * Blitz (npm `@blitzjs/generator`): the password-reset mail a generated Blitz app sends, from the
 * app templates' `mailers/forgotPasswordMailer.ts` (the `app` and `pages` layouts differ in the
 * reset path): its subject and its HTML template literal evaluated with `resetUrl` built as the
 * mailer builds it from the origin and the token of `@blitzjs/auth`'s `generateToken()` (nanoid,
 * 32 URL-safe characters), password_reset. English only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { host, urlsafe } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const LAYOUTS = ['app', 'pages'] as const;
const file = (layout: string): string => `dist/templates/${layout}/mailers/forgotPasswordMailer.ts`;

interface Mailer { readonly path: string; readonly subject: string; readonly html: string }

const mailer = (src: string, name: string): Mailer => {
  const path = /const resetUrl = `\$\{origin\}([^`$]*)\$\{token\}`/.exec(src)?.[1];
  const subject = /subject: "([^"]*)"/.exec(src)?.[1];
  const html = /html: `([^`]*)`/.exec(src)?.[1];
  if (path === undefined || subject === undefined || html === undefined) throw new Error(`resetUrl, subject or html not found in ${name}`);
  return { path, subject, html };
};

export const blitz: Adapter = {
  product: 'blitz',
  packages: [{ npm: '@blitzjs/generator@3.0.2' }],
  render: ({ roots, rng, reps }) =>
    LAYOUTS.flatMap((layout) => {
      const m = mailer(readFileSync(join(roots[0] ?? '', file(layout)), 'utf8'), file(layout));
      return repsOf(reps * 2).map((n): Rendered => {
        const r = rng(`${layout}:${n}`);
        const resetUrl = `https://${host(r)}${m.path}${urlsafe(r, 32)}`;
        return {
          template: `forgot_password_${layout}`,
          lang: 'en',
          subject: m.subject,
          // The template literal has one substitution, `${resetUrl}`.
          html: m.html.replace(/\$\{resetUrl\}/g, resetUrl),
          secret: { kind: 'magic_link', value: resetUrl, link_purpose: 'password_reset' },
          source: file(layout),
        };
      });
    }),
};
