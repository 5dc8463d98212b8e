/**
 * Unleash (npm `unleash-server`): the mails of `dist/lib/services/email-service.js`, from the
 * Mustache templates `dist/mailtemplates/<name>/<name>.{plain,html}.mustache` (rendered with
 * Handlebars in its Mustache-compatible mode) and the subjects that file defines (its constants, and
 * the template literals of the token-expiry mails), with the contexts its senders build. Reset and
 * welcome links are `reset-token-service.js`'s `<unleashUrl>/reset-password?token=` and
 * `/new-user?token=` with its token (a bcrypt hash); a welcome whose password link would be the
 * instance URL (single sign-on) drops it, as the sender does (label none). Token-expiry,
 * change-request and failed-schedule notices carry none. English only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { repsOf } from '../locales.js';
import { date, email, host, person, siteName, type Rng } from '../random.js';
import type { Adapter, LinkPurpose, Rendered, Secret } from '../types.js';

const SERVICE = 'dist/lib/services/email-service.js';
const TEMPLATES = 'dist/mailtemplates';

// bcrypt's output: `$2b$10$` and 53 characters of its base-64 alphabet.
const bcrypt = (r: Rng): string => `$2b$10$${r.chars('./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 53)}`;

interface Case { readonly template: string; readonly subject: (src: string, ctx: Record<string, unknown>) => string; readonly context: (r: Rng, base: string) => { ctx: Record<string, unknown>; secret?: Secret } }

const constant = (name: string) => (src: string): string => {
  const m = new RegExp(`const ${name} = '([^']*)'`).exec(src);
  if (m === null) throw new Error(`${name} not found in ${SERVICE}`);
  return m[1] ?? '';
};
/** A subject written as a template literal after `template: '<name>'`, with `${x}` from the context. */
const literal = (template: string) => (src: string, ctx: Record<string, unknown>): string => {
  const at = src.indexOf(`template: '${template}'`);
  const m = /subject: `([^`]*)`/.exec(src.slice(at));
  if (at < 0 || m === null) throw new Error(`subject of ${template} not found in ${SERVICE}`);
  return (m[1] ?? '').replace(/\$\{(\w+)\}/g, (_x, k: string) => String(ctx[k] ?? ''));
};

const link = (base: string, path: string, r: Rng, purpose: LinkPurpose): { url: string; secret: Secret } => {
  const url = new URL(`${base}${path}?token=${bcrypt(r)}`).toString();
  return { url, secret: { kind: 'magic_link', value: url, link_purpose: purpose } };
};
const expiry = (r: Rng): Record<string, unknown> => {
  const days = r.pick([1, 3, 7, 14]);
  return { daysUntilExpiry: days, dayWord: days === 1 ? 'day' : 'days', tokenDescription: r.chance(0.7) ? r.pick(['CI pipeline', 'terraform', `backend-${r.int(1, 9)}`]) : '' };
};

const CASES: readonly Case[] = [
  { template: 'reset-password', subject: constant('RESET_MAIL_SUBJECT'), context: (r, base) => { const l = link(base, '/reset-password', r, 'password_reset'); return { ctx: { resetLink: l.url }, secret: l.secret }; } },
  {
    template: 'getting-started',
    subject: constant('GETTING_STARTED_SUBJECT'),
    context: (r, base) => {
      const ctx: Record<string, unknown> = { name: r.chance(0.7) ? person(r).full : '', unleashUrl: base, recipient: email(r) };
      if (r.chance(0.3)) return { ctx };
      const l = link(base, '/new-user', r, 'invite');
      return { ctx: { ...ctx, passwordLink: l.url }, secret: l.secret };
    },
  },
  { template: 'personal-api-token-expiry', subject: literal('personal-api-token-expiry'), context: (r, base) => ({ ctx: { recipientName: person(r).full, recipientEmail: email(r), ...expiry(r), tokensUrl: `${base}/profile/personal-api-tokens` } }) },
  { template: 'service-account-token-expiry', subject: literal('service-account-token-expiry'), context: (r, base) => ({ ctx: { serviceAccountName: r.pick(['deploy-bot', 'edge-proxy', 'analytics']), recipientEmail: email(r), ...expiry(r), tokensUrl: `${base}/admin/service-accounts` } }) },
  {
    template: 'requested-cr-approval',
    subject: constant('REQUESTED_CR_APPROVAL_SUBJECT'),
    context: (r, base) => ({ ctx: { changeRequestLink: `${base}/projects/default/change-requests/${r.int(1, 400)}`, changeRequestTitle: r.pick(['Enable new-checkout for 10%', 'Archive flag old-banner', 'Add segment beta-testers']), requesterName: person(r).full, requesterEmail: email(r) } }),
  },
  {
    template: 'scheduled-execution-failed',
    subject: constant('SCHEDULED_EXECUTION_FAILED_SUBJECT'),
    context: (r, base) => ({ ctx: { changeRequestLink: `${base}/projects/default/change-requests/${r.int(1, 400)}`, changeRequestTitle: r.pick(['Roll out dark-mode', 'Disable legacy-search']), scheduledAt: date(r).toUTCString(), errorMessage: r.pick(['Flag not found', 'Strategy has been deleted', 'Environment production is disabled']) } }),
  },
];

export const unleash: Adapter = {
  product: 'unleash',
  packages: [{ npm: 'unleash-server@8.2.0' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const src = readFileSync(join(root, SERVICE), 'utf8');
    const compile = (name: string, format: string) => Handlebars.compile(readFileSync(join(root, TEMPLATES, name, `${name}.${format}.mustache`), 'utf8'), { compat: true });
    return CASES.flatMap((c) => {
      const text = compile(c.template, 'plain');
      const html = compile(c.template, 'html');
      return repsOf(reps * 2).map((n): Rendered => {
        const r = rng(`${c.template}:${n}`);
        const base = `https://${r.pick(['unleash.', 'flags.', 'features.'])}${host(r, siteName(r)).replace(/^[a-z]+\./, '')}`;
        const { ctx, secret } = c.context(r, base);
        // Mustache skips a section on an empty string; Handlebars' block helper would not, so absent values stay absent.
        const full = { ...Object.fromEntries(Object.entries(ctx).filter(([, v]) => v !== '')), year: String(r.int(2024, 2025)) };
        return { template: c.template, lang: 'en', subject: c.subject(src, ctx), text: text(full), html: html(full), fromName: 'Unleash', ...(secret !== undefined ? { secret } : {}), source: `${TEMPLATES}/${c.template}/ + ${SERVICE}` };
      });
    });
  },
};
