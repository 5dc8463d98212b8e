/**
 * Stack Auth (npm `@stackframe/stack-shared`): the default e-mail templates and theme of
 * `dist/helpers/emails.js` (`DEFAULT_EMAIL_TEMPLATES`, `DEFAULT_EMAIL_THEMES`), TSX sources run
 * through `jsx.ts` with react-email's components written as the tables and links they render to;
 * the subject is what the template's `<Subject>` receives. Links have the handler paths of a Stack
 * app with a `code`; the sign-in mail leads with the one-time password (otp, six characters, as in
 * the template's preview) and carries the magic link (`also`). The sign-in invitation links to the
 * sign-in page and the payment mails carry no secret (label none). English only.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { children, element, evaluateTsx, type Child, type Component } from '../jsx.js';
import { repsOf } from '../locales.js';
import { alnum, host, person, siteName, type Rng } from '../random.js';
import type { Adapter, LinkPurpose, Rendered, Secret } from '../types.js';

const FILE = 'dist/helpers/emails.js';

interface Source { displayName: string; tsxSource: string }
interface Emails { DEFAULT_EMAIL_TEMPLATES: Record<string, Source>; DEFAULT_EMAIL_THEMES: Record<string, Source>; DEFAULT_EMAIL_THEME_ID: string; DEFAULT_TEMPLATE_IDS: Record<string, string> }

const table = (props: Record<string, unknown>, inner: string): string =>
  String(element('table', { align: 'center', width: '100%', border: '0', cellPadding: '0', cellSpacing: '0', role: 'presentation', ...props }, `<tbody><tr><td>${inner}</td></tr></tbody>`));

/** react-email's components as the HTML they produce, near enough; `subject` receives `<Subject>`. */
const components = (subject: { value: string }): Record<string, unknown> => {
  const c = (f: (p: Record<string, unknown>, inner: string) => string): Component => (p) => f(p, children(p.children as Child));
  const pass = (p: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'children' && k !== 'as'));
  return {
    '@react-email/components': {
      Html: c((_p, inner) => `<!DOCTYPE html><html lang="en" dir="ltr">${inner}</html>`),
      Head: c(() => '<head><meta content="text/html; charset=UTF-8" http-equiv="Content-Type"></head>'),
      Tailwind: c((_p, inner) => inner),
      Body: c((p, inner) => String(element('body', pass(p), inner))),
      Container: c((p, inner) => table({ ...pass(p), style: { maxWidth: '37.5em', ...(p.style as object) } }, inner)),
      Section: c((p, inner) => table(pass(p), inner)),
      Button: c((p, inner) => String(element('a', { ...pass(p), style: { lineHeight: '100%', textDecoration: 'none', display: 'inline-block', maxWidth: '100%' } }, `<span>${inner}</span>`))),
      Hr: c((p) => String(element('hr', { ...pass(p), style: { width: '100%', border: 'none', borderTop: '1px solid #eaeaea' } }, ''))),
      Text: c((p, inner) => String(element('p', pass(p), inner))),
      Heading: c((p, inner) => String(element(String(p.as ?? 'h1'), pass(p), inner))),
    },
    '@stackframe/emails': {
      Subject: c((p) => { subject.value = String(p.value); return ''; }),
      NotificationCategory: c(() => ''),
      ProjectLogo: c(() => ''),
    },
    arktype: { type: () => ({}) },
  };
};

interface Spec { readonly name: string; readonly vars: (r: Rng, app: string) => { variables: Record<string, unknown>; secret?: Secret; also?: Secret[] } }
const link = (app: string, path: string, r: Rng, purpose: LinkPurpose): { url: string; secret: Secret } => {
  const url = `${app}/handler/${path}?code=${alnum(r, 45).toLowerCase()}`;
  return { url, secret: { kind: 'magic_link', value: url, link_purpose: purpose } };
};
const SPECS: readonly Spec[] = [
  { name: 'email_verification', vars: (r, app) => { const l = link(app, 'email-verification', r, 'verify_email'); return { variables: { emailVerificationLink: l.url }, secret: l.secret }; } },
  { name: 'password_reset', vars: (r, app) => { const l = link(app, 'password-reset', r, 'password_reset'); return { variables: { passwordResetLink: l.url }, secret: l.secret }; } },
  {
    name: 'magic_link',
    vars: (r, app) => {
      const l = link(app, 'magic-link-callback', r, 'sign_in');
      const otp = r.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 6);
      return { variables: { magicLink: l.url, otp }, secret: { kind: 'otp', value: otp }, also: [l.secret] };
    },
  },
  { name: 'team_invitation', vars: (r, app) => { const l = link(app, 'team-invitation', r, 'invite'); return { variables: { teamDisplayName: r.pick(['Growth', 'Platform', 'Acme Design']), teamInvitationLink: l.url }, secret: l.secret }; } },
  { name: 'sign_in_invitation', vars: (r, app) => ({ variables: { signInInvitationLink: `${app}/handler/sign-in`, teamDisplayName: r.pick(['Growth', 'Support']) } }) },
  { name: 'payment_receipt', vars: (r, app) => ({ variables: { productName: r.pick(['Pro Plan', 'Team (annual)', '500 credits']), quantity: r.int(1, 5), amount: `$${r.int(5, 900)}.${r.pick(['00', '99', '50'])}`, receiptLink: r.chance(0.6) ? `${app}/billing/receipts/in_${alnum(r, 14)}` : undefined } }) },
  { name: 'payment_failed', vars: (r, app) => ({ variables: { productName: r.pick(['Pro Plan', 'Business']), amount: `€${r.int(9, 499)}.00`, invoiceUrl: r.chance(0.6) ? `${app}/billing` : undefined, failureReason: r.chance(0.6) ? r.pick(['Your card was declined', 'Insufficient funds', 'Card expired 04/25']) : undefined } }) },
];

export const stackAuth: Adapter = {
  product: 'stack-auth',
  packages: [{ npm: '@stackframe/stack-shared@2.8.109' }],
  render: ({ roots, rng, reps }) => {
    const file = join(roots[0] ?? '', FILE);
    const emails = createRequire(file)(file) as Emails;
    const theme = emails.DEFAULT_EMAIL_THEMES[emails.DEFAULT_EMAIL_THEME_ID];
    if (theme === undefined) throw new Error(`default theme not found in ${FILE}`);
    return SPECS.flatMap((s) => {
      const id = emails.DEFAULT_TEMPLATE_IDS[s.name];
      const template = id !== undefined ? emails.DEFAULT_EMAIL_TEMPLATES[id] : undefined;
      if (template === undefined) throw new Error(`${s.name} not in DEFAULT_EMAIL_TEMPLATES`);
      return repsOf(reps * 2).map((n): Rendered => {
        const r = rng(`${s.name}:${n}`);
        const project = siteName(r);
        const app = `https://${host(r, project)}`;
        const { variables, secret, also } = s.vars(r, app);
        const subject = { value: '' };
        const mods = components(subject);
        const body = (evaluateTsx(template.tsxSource, mods).EmailTemplate as Component)({ user: { displayName: r.chance(0.7) ? person(r).full : null }, project: { displayName: project }, variables });
        const html = String((evaluateTsx(theme.tsxSource, mods).EmailTheme as Component)({ children: [body] as unknown as Child, unsubscribeLink: undefined, projectLogos: {} }));
        return { template: s.name, lang: 'en', subject: subject.value, html, fromName: project, ...(secret !== undefined ? { secret } : {}), ...(also !== undefined ? { also } : {}), source: `${FILE} (DEFAULT_EMAIL_TEMPLATES ${template.displayName}, theme ${theme.displayName})` };
      });
    });
  },
};
