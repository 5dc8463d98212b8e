/**
 * n8n (npm `n8n`): the user-management mails, Handlebars templates in
 * `dist/user-management/email/templates/*.handlebars` rendered with handlebars and the data
 * `dist/user-management/email/user-management-mailer.js` passes; each subject is the one that file
 * sends the template with (a literal, or the `subjectBuilder` template literal run with the
 * sharer). HTML only. Secrets: `inviteAcceptUrl` (invite, `/signup?token=`), `passwordResetUrl`
 * (password_reset, `/change-password?token=…&mfaEnabled=…`), `confirmationUrl` (verify_email,
 * `/confirm-email-change?token=`). The other templates (workflow and credential shares, failures,
 * revoked keys) carry links and names but no secret: label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { repsOf } from '../locales.js';
import { date, host, jwtLike, person, uuid, type Rng } from '../random.js';
import type { Adapter, LinkPurpose, Rendered } from '../types.js';

const DIR = 'dist/user-management/email';
const MAILER = `${DIR}/user-management-mailer.js`;

interface Spec { readonly name: string; readonly secret?: { readonly key: string; readonly purpose: LinkPurpose } }
const SPECS: Spec[] = [
  { name: 'user-invited', secret: { key: 'inviteAcceptUrl', purpose: 'invite' } },
  { name: 'password-reset-requested', secret: { key: 'passwordResetUrl', purpose: 'password_reset' } },
  { name: 'email-change-requested', secret: { key: 'confirmationUrl', purpose: 'verify_email' } },
  { name: 'email-change-completed' }, { name: 'api-key-revoked' }, { name: 'mcp-client-revoked' }, { name: 'workflow-failure' },
  { name: 'workflow-shared' }, { name: 'credentials-shared' }, { name: 'project-shared' }, { name: 'workflow-deactivated' },
];

/** The subject the mailer sends `name` with: the first `subject: '…'` or `subjectBuilder` after the template's name. */
const subjectFor = (mailer: string, name: string, sharer: string): string => {
  const rest = mailer.slice(mailer.indexOf(`'${name}'`));
  const m = /subject: '([^']*)'|subjectBuilder: \(\) => (?:'([^']*)'|`([^`]*)`)/.exec(rest);
  if (m === null || mailer.indexOf(`'${name}'`) < 0) throw new Error(`subject of ${name} not found in ${MAILER}`);
  return m[1] ?? m[2] ?? (m[3] ?? '').replace('${sharer.firstName}', sharer);
};

const data = (r: Rng, base: string): Record<string, string> => {
  const u = person(r);
  return {
    domain: base, firstName: u.first, newEmail: `${u.username}@inbox.test`, currentYear: String(2024 + r.int(0, 1)),
    inviteAcceptUrl: `${base}/signup?token=${jwtLike(r)}`,
    passwordResetUrl: `${base}/change-password?token=${jwtLike(r)}&mfaEnabled=${r.pick(['false', 'true'])}`,
    confirmationUrl: `${base}/confirm-email-change?token=${jwtLike(r)}`,
    workflowName: r.pick(['Sync CRM contacts', 'Invoice #4471 to Slack', 'Nightly backup 02:00', 'Order 88213 follow-up']),
    workflowUrl: `${base}/workflow/${r.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 16)}`,
    instanceURL: base, credentialsName: r.pick(['Stripe live key', 'Postgres prod', 'Gmail OAuth2']), credentialsListUrl: `${base}/home/credentials`,
    projectName: r.pick(['Marketing', 'Finance Ops', 'Data Team']), role: r.pick(['editor', 'viewer', 'admin']), projectUrl: `${base}/projects/${uuid(r)}`,
    label: r.pick(['CI token', 'Zapier import', 'Backup script']), suffix: `…${r.chars('abcdef0123456789', 4)}`, revokedAt: date(r).toUTCString(), revokedBy: person(r).full,
    createApiKeyUrl: `${base}/settings/api`, clientName: r.pick(['Claude Desktop', 'Cursor', 'VS Code']), mcpSettingsUrl: `${base}/settings/mcp`,
  };
};

export const n8n: Adapter = {
  product: 'n8n',
  packages: [{ npm: 'n8n@2.41.3' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const mailer = readFileSync(join(root, MAILER), 'utf8');
    return SPECS.flatMap((spec) => {
      const template = Handlebars.compile(readFileSync(join(root, DIR, 'templates', `${spec.name}.handlebars`), 'utf8'));
      return repsOf(spec.secret ? reps * 4 : reps * 2).map((n): Rendered => {
        const r = rng(`${spec.name}:${n}`);
        const base = `https://${r.pick(['n8n.', 'automation.', 'flows.'])}${host(r).replace(/^(www|app|portal|accounts|mail)\./, '')}`;
        const d = data(r, base);
        const sharer = person(r).first;
        return {
          template: spec.name,
          lang: 'en',
          subject: subjectFor(mailer, spec.name, sharer),
          html: template(d),
          fromName: 'n8n',
          ...(spec.secret ? { secret: { kind: 'magic_link', value: d[spec.secret.key] ?? '', link_purpose: spec.secret.purpose } } : {}),
          source: `${DIR}/templates/${spec.name}.handlebars + ${MAILER}`,
        };
      });
    });
  },
};
