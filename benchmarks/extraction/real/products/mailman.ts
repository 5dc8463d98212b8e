/**
 * GNU Mailman 3 (Debian mailman3): the list mails of `mailman/templates/<lang>/*.txt`
 * (`$name` substitutions, Python string.Template) with subjects from `mailman/messages/<lang>/LC_MESSAGES/mailman.po`.
 * The confirmation mails (`list:user:action:subscribe|unsubscribe|invite`) hold `$token`, which the
 * user sends back as `confirm <token>`: label otp. The notices (welcome, goodbye, held posts,
 * moderation requests, pending-request digests…) hold none. A template a language lacks is
 * skipped for that language (Mailman would fall back to English).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gettext, readCatalog, type Catalog } from '../gettext.js';
import { langTag, repsOf } from '../locales.js';
import { email, hex, host, person, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const PY = 'usr/lib/python3/dist-packages/mailman';

// The subject each template is sent with (msgids of app/subscriptions.py, app/notifications.py,
// chains/hold.py, commands/cli_notify.py); `otp` marks the templates that hold the token.
const TEMPLATES: Record<string, { subject: string; otp?: true }> = {
  'list:user:action:subscribe': { subject: 'Your confirmation is needed to join the ${event.mlist.fqdn_listname} mailing list.', otp: true },
  'list:user:action:unsubscribe': { subject: 'Your confirmation is needed to leave the ${event.mlist.fqdn_listname} mailing list.', otp: true },
  'list:user:action:invite': { subject: 'You have been invited to join the ${event.mlist.fqdn_listname} mailing list.', otp: true },
  'list:user:notice:welcome': { subject: 'Welcome to the "${mlist.display_name}" mailing list${digmode}' },
  'list:user:notice:goodbye': { subject: 'You have been unsubscribed from the ${mlist.display_name} mailing list' },
  'list:user:notice:hold': { subject: 'Your message to ${mlist.fqdn_listname} awaits moderator approval' },
  'list:user:notice:no-more-today': { subject: 'Last autoresponse notification for today' },
  'list:user:notice:rejected': { subject: 'Request to mailing list "${display_name}" rejected' },
  'list:admin:notice:subscribe': { subject: '${mlist.display_name} subscription notification' },
  'list:admin:action:post': { subject: '${mlist.fqdn_listname} post from ${msg.sender} requires approval' },
  'list:admin:notice:pending': { subject: 'The {} list has {} moderation requests waiting.' },
};

/** Python's string.Template substitution: `$name` and `${name}` (dotted names too); `$$` is a dollar. */
export const substitute = (tpl: string, vars: Readonly<Record<string, string>>): string =>
  tpl.replace(/\$(?:\{([\w.]+)\}|([\w]+)|(\$))/g, (m, braced?: string, bare?: string, dollar?: string) => (dollar !== undefined ? '$' : (vars[braced ?? bare ?? ''] ?? m)));

const varsFor = (r: Rng, token: string): Record<string, string> => {
  const domain = host(r).replace(/^(www|app|portal|accounts)\./, 'lists.');
  const short = r.pick(['announce', 'users', 'dev', 'board', 'members', 'volunteers']);
  const listname = `${short}@${domain}`;
  const user = person(r);
  const display = short[0]?.toUpperCase() + short.slice(1);
  const n = r.int(2, 14);
  return {
    token, domain, domain_name: domain, short_listname: short, listname, 'event.mlist.fqdn_listname': listname, 'mlist.fqdn_listname': listname,
    display_name: display, 'mlist.display_name': display, digmode: r.chance(0.3) ? ' (Digest mode)' : '',
    request_email: `${short}-request@${domain}`, owner_email: `${short}-owner@${domain}`, site_email: `mailman@${domain}`,
    user_email: `${user.username}@inbox.test`, member: `${user.full} <${user.username}@inbox.test>`, sender_email: email(r),
    'msg.sender': email(r), subject: r.pick(['Minutes of the meeting on 14 March', 'Re: budget 2025', 'Order #48213 shipped?', 'Agenda for next week']),
    reasons: r.pick(['Post by non-member to a members-only list', 'Message has implicit destination', 'The message is too big: 412 KB > 40 KB']),
    reason: 'The message is not from a list member', request: `subscribe ${short}`, count: String(n),
    data: Array.from({ length: Math.min(n, 4) }, (_v, i) => `    From: ${email(r)} on ${r.pick(['Mon', 'Tue', 'Wed'])} ${r.int(1, 28)} Jan 2025\n    Subject: Request #${r.int(1000, 9999)} (${i + 1})`).join('\n'),
  };
};

const renderOne = (root: string, locale: string, cat: Catalog, name: string, r: Rng): Rendered => {
  const t = TEMPLATES[name] ?? { subject: '' };
  const token = hex(r, 40);
  const vars = varsFor(r, token);
  const subjectFmt = gettext(cat, t.subject);
  const subject = name === 'list:admin:notice:pending' ? subjectFmt.replace('{}', vars.listname ?? '').replace('{}', vars.count ?? '') : substitute(subjectFmt, vars);
  const file = join(PY, 'templates', locale, `${name}.txt`);
  return {
    template: name.replaceAll(':', '_'),
    lang: langTag(locale),
    subject,
    text: substitute(readFileSync(join(root, file), 'utf8'), vars),
    fromName: `${vars.display_name} Mailing List`,
    ...(t.otp ? { secret: { kind: 'otp', value: token } } : {}),
    source: `${file} + ${PY}/messages/${locale}/LC_MESSAGES/mailman.po`,
  };
};

export const mailman: Adapter = {
  product: 'mailman',
  packages: [{ deb: 'mailman3' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const locales = readdirSync(join(root, PY, 'templates')).filter((l) => !l.startsWith('_')).sort();
    return locales.flatMap((locale) => {
      const po = join(root, PY, 'messages', locale, 'LC_MESSAGES', 'mailman.po');
      const cat = locale !== 'en' && existsSync(po) ? readCatalog(po) : new Map<string, string>();
      return Object.keys(TEMPLATES)
        .filter((name) => existsSync(join(root, PY, 'templates', locale, `${name}.txt`)))
        .flatMap((name) => repsOf(TEMPLATES[name]?.otp ? reps : 1).map((n) => renderOne(root, locale, cat, name, rng(`${name}:${locale}:${n}`))));
    });
  },
};
