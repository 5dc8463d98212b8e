/**
 * Flowise (npm `flowise`): the account and workspace mails of `dist/enterprise/utils/sendEmail.js`,
 * run as shipped (its Handlebars templates `dist/enterprise/emails/*.hbs`, its text parts and
 * subjects) with the transport replaced by one that keeps the message. Links are built as
 * `utils/url.util.js` builds them (`APP_URL` + path + `?token=`) with `generateTempToken()`'s 64
 * alphanumerics, or a signed JWT for the e-mail change. Enterprise invitations carry a register
 * link with a token (invite); cloud invitations and "added to workspace" mails link to the plain
 * register page or the dashboard (label none). English only.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as path from 'node:path';
import * as fs from 'node:fs';
import Handlebars from 'handlebars';
import { repsOf } from '../locales.js';
import { alnum, email, host, jwtLike, person, siteName, type Rng } from '../random.js';
import type { Adapter, LinkPurpose, Rendered } from '../types.js';

const FILE = 'dist/enterprise/utils/sendEmail.js';
const PLATFORM = { ENTERPRISE: 'enterprise', CLOUD: 'cloud', OPEN_SOURCE: 'open source' };

interface Sent { subject: string; text?: string; html?: string; from?: string }
type Senders = Record<string, (...args: string[]) => Promise<void>>;

/** sendEmail.js evaluated with its own `__dirname`, Handlebars, fs and path, and a transport that records. */
const load = (root: string, outbox: Sent[]): Senders => {
  const file = join(root, FILE);
  const modules: Record<string, unknown> = {
    handlebars: Handlebars,
    nodemailer: { __esModule: true, default: { createTransport: () => ({ sendMail: async (m: Sent) => { outbox.push(m); } }) } },
    'node:fs': { __esModule: true, default: fs },
    path: { __esModule: true, default: path },
    '../../Interface': { Platform: PLATFORM },
  };
  const module = { exports: {} as Senders };
  const req = createRequire(file);
  new Function('exports', 'require', 'module', '__dirname', readFileSync(file, 'utf8'))(module.exports, (id: string) => modules[id] ?? req(id), module, join(root, 'dist/enterprise/utils'));
  return module.exports;
};

interface Spec { readonly template: string; readonly send: string; readonly path: string; readonly token?: 'temp' | 'jwt'; readonly purpose?: LinkPurpose; readonly platform?: string; readonly type?: string }
const SPECS: readonly Spec[] = [
  { template: 'password_reset', send: 'sendPasswordResetEmail', path: '/reset-password', token: 'temp', purpose: 'password_reset' },
  { template: 'verify_email_cloud', send: 'sendVerificationEmailForCloud', path: '/verify', token: 'temp', purpose: 'verify_email' },
  { template: 'confirm_email_change', send: 'sendEmailChangeConfirmationEmail', path: '/confirm-email-change', token: 'jwt', purpose: 'verify_email' },
  { template: 'invite_new_enterprise', send: 'sendWorkspaceInvite', path: '/register', token: 'temp', purpose: 'invite', platform: PLATFORM.ENTERPRISE, type: 'new' },
  { template: 'invite_update_enterprise', send: 'sendWorkspaceInvite', path: '/register', token: 'temp', purpose: 'invite', platform: PLATFORM.ENTERPRISE, type: 'update' },
  { template: 'invite_new_cloud', send: 'sendWorkspaceInvite', path: '/register', platform: PLATFORM.CLOUD, type: 'new' },
  { template: 'invite_update_cloud', send: 'sendWorkspaceInvite', path: '/register', platform: PLATFORM.CLOUD, type: 'update' },
  { template: 'workspace_add_cloud', send: 'sendWorkspaceAdd', path: '' },
];

const renderOne = async (senders: Senders, outbox: Sent[], s: Spec, r: Rng): Promise<Rendered> => {
  const appUrl = `https://${host(r, 'Flowise')}${r.pick(['', '', '/flowise'])}`;
  const token = s.token === 'temp' ? alnum(r, 64) : s.token === 'jwt' ? jwtLike(r) : undefined;
  const link = `${appUrl}${s.path}${token !== undefined ? `?token=${encodeURIComponent(token)}` : ''}`;
  const to = email(r, person(r).username);
  const workspace = r.pick([`${siteName(r)} workspace`, 'Default Workspace', 'Data Science', 'Support Bots']);
  const send = senders[s.send];
  if (send === undefined) throw new Error(`${s.send} not exported by ${FILE}`);
  const before = outbox.length;
  if (s.send === 'sendPasswordResetEmail' || s.send === 'sendVerificationEmailForCloud') await send(to, link);
  else if (s.send === 'sendEmailChangeConfirmationEmail') await send(to, link, email(r, person(r).username));
  else if (s.send === 'sendWorkspaceInvite') await send(to, workspace, link, s.platform ?? '', s.type ?? 'new');
  else await send(to, workspace, link);
  const m = outbox[before];
  if (m === undefined) throw new Error(`${s.send} sent nothing`);
  return {
    template: s.template,
    lang: 'en',
    subject: m.subject,
    ...(m.text !== undefined ? { text: m.text } : {}),
    ...(m.html !== undefined ? { html: m.html } : {}),
    fromName: 'FlowiseAI Team',
    ...(token !== undefined ? { secret: { kind: 'magic_link', value: link, link_purpose: s.purpose } } : {}),
    source: `${FILE} (${s.send}) + dist/enterprise/emails/`,
  };
};

export const flowise: Adapter = {
  product: 'flowise',
  packages: [{ npm: 'flowise@3.1.4' }],
  render: async ({ roots, rng, reps }) => {
    const outbox: Sent[] = [];
    const senders = load(roots[0] ?? '', outbox);
    const out: Rendered[] = [];
    for (const s of SPECS) for (const n of repsOf(reps * 2)) out.push(await renderOne(senders, outbox, s, rng(`${s.template}:${n}`)));
    return out;
  },
};
