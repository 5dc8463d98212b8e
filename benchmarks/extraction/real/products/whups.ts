/**
 * Whups, Horde's ticket tracker (Debian php-horde-whups): the ticket mails of `Whups_Ticket::notify`
 * (create and update), `Whups_Ticket::delete` and `Whups::sendReminders`, their bodies from the
 * shipped `etc/horde/whups/{create,notify,delete,reminder}_email.plain.php` views and the ticket
 * table laid out as `notify()` builds it (labels padded to the longest translated one, `-`/`+`
 * lines for a change), subjects as `Whups_Driver::mail` prefixes them (`[Whups #id] `), all strings
 * translated by `usr/share/horde/whups/locale/<lang>/LC_MESSAGES/whups.mo`. Decoys: ticket ids,
 * versions, dates, owners' addresses. Label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gettext, readCatalog, type Catalog } from '../gettext.js';
import { langTag, localesWith, repsOf } from '../locales.js';
import { sprintf } from '../php.js';
import { renderPhpView, type PhpScope } from '../php-view.js';
import { date, email, host, person, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';
import { wrap } from './horde.js';

const APP = 'usr/share/horde/whups';
const CONFIG = 'etc/horde/whups';
const TICKET = `${APP}/lib/Ticket.php`;
const LIB = [TICKET, `${APP}/lib/Driver.php`, `${APP}/lib/Whups.php`];

const SUMMARIES = ['Login page returns 500 after upgrade to 5.2.23', 'Printer on floor 3 offline again', 'Quota warning for shared mailbox sales@', 'VPN drops every 30 minutes', 'Invoice PDF shows wrong VAT (19% vs 7%)'];
const COMMENTS = ['Reproduced on build 2024.11.3; log attached.', 'Replaced the toner, please check again tomorrow.', 'Raised quota from 2 GB to 5 GB.', 'Workaround: set MTU to 1400 on the client.'];

/** The ticket-table labels `notify()` uses, by field, read from Ticket.php; every other msgid must occur in `lib/`. */
const labels = (src: string): Record<string, string> => {
  const fields = /\$fields = array\(([\s\S]*?)\);/.exec(src)?.[1] ?? '';
  const out: Record<string, string> = Object.fromEntries([...fields.matchAll(/'(\w+)' => _\("([^"]+)"\)/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
  if (out.state === undefined) throw new Error(`ticket fields not found in ${TICKET}`);
  for (const id of ['Ticket', 'Created By', 'Updated By', 'Summary', 'Owners', 'Ticket URL: %s', 'Deleted:', '%s (%s) wrote:', 'Reminder: Your open tickets']) {
    if (!src.includes(`_("${id}")`)) throw new Error(`_("${id}") not found in ${LIB.join(', ')}`);
  }
  return out;
};

const stamp = (d: Date): string => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}`;

interface Ticket { id: number; summary: string; queue: string; version: string; type: string; state: string; oldState: string; priority: string; owner: string; url: string; when: Date }

const ticketFor = (r: Rng, cat: Catalog): Ticket => {
  const site = host(r).replace(/^(www|app|portal|accounts)\./, 'support.');
  const id = r.int(12, 9999);
  const states = ['Unconfirmed', 'New', 'Assigned', 'Resolved'].map((s) => gettext(cat, s));
  const owner = person(r);
  return {
    id,
    summary: r.pick(SUMMARIES),
    queue: r.pick(['Helpdesk', 'IT Operations', 'Billing', 'Web']),
    version: r.pick(['1.0', '2.3.1', '5.2', '2024.10']),
    type: r.pick(['Bug', 'Request', 'Incident']),
    state: states[r.int(1, 3)] ?? '',
    oldState: states[0] ?? '',
    priority: r.pick(['1. Low', '2. Medium', '3. High']),
    owner: `${owner.full} <${email(r, owner.username)}>`,
    url: r.chance(0.5) ? `https://${site}/horde/whups/ticket/${id}` : `https://${site}/horde/whups/ticket/?id=${id}`,
    when: date(r),
  };
};

const table = (t: Ticket, cat: Catalog, l: Record<string, string>, author: string, isNew: boolean): string => {
  const tr = (id: string): string => gettext(cat, id);
  const fieldIds = ['queue', 'version', 'type', 'state', 'priority', 'due'].map((f) => l[f] ?? f);
  const names = [...fieldIds, 'Created By', 'Updated By', 'Summary', 'Owners'].map(tr);
  const len = Math.max(...names.map((n) => [...n].length));
  const pad = (s: string): string => s + ' '.repeat(Math.max(0, len - [...s].length));
  const cell = (s: string): string => wrap(s, 73 - len).split('\n').join(`\n${' '.repeat(len + 2)}| `);
  const line = (mark: string, label: string, value: string): string => `${mark}${pad(label)} | ${cell(value)}\n`;
  const rule = '-'.repeat(78);
  let out = `${rule}\n${line(' ', tr('Ticket'), String(t.id))}${line(' ', tr(isNew ? 'Created By' : 'Updated By'), author)}${line(' ', tr('Summary'), t.summary)}`;
  const values: Record<string, string> = { queue: t.queue, version: t.version, type: t.type, state: t.state, priority: t.priority };
  for (const f of ['queue', 'version', 'type', 'state', 'priority']) {
    const label = tr(l[f] ?? f);
    out += !isNew && f === 'state' ? line('-', label, t.oldState) + line('+', label, t.state) : line(' ', label, values[f] ?? '');
  }
  return `${out}${line(' ', tr('Owners'), t.owner)}${rule}`;
};

const renderOne = (root: string, lang: string, cat: Catalog, l: Record<string, string>, kind: string, r: Rng): Rendered => {
  const tr = (id: string): string => gettext(cat, id);
  const t = ticketFor(r, cat);
  const author = person(r);
  const authorLine = `${author.full} <${email(r, author.username)}>`;
  const view = readFileSync(join(root, CONFIG, `${kind}_email.plain.php`), 'utf8');
  const comment = kind === 'notify' ? `\n${sprintf(tr('%s (%s) wrote:'), authorLine, stamp(t.when))}\n\n${r.pick(COMMENTS)}\n\n\n` : '';
  const tickets = Array.from({ length: r.int(1, 4) }, () => ticketFor(r, cat));
  const scope: PhpScope = {
    '$this->dont_reply': r.chance(0.5),
    '$this->ticket_url': sprintf(tr('Ticket URL: %s'), t.url),
    '$this->table': kind === 'create' || kind === 'notify' ? table(t, cat, l, authorLine, kind === 'create') : '',
    '$this->comment': comment,
    '$this->auth_name': author.full,
    '$this->tickets': tickets.map((x) => ({
      "$ticket['id']": String(x.id),
      "$ticket['summary']": x.summary,
      "strftime('%a %d %B', $ticket['timestamp'])": new Intl.DateTimeFormat(langTag(lang), { weekday: 'short', day: '2-digit', month: 'long', timeZone: 'UTC' }).format(x.when),
      "Horde_Form_Type_date::getAgo($ticket['timestamp'])": ` (${r.int(2, 90)} days ago)`,
      "$ticket['state_name']": x.state,
      "$ticket['link']": x.url,
    })),
  };
  const subject = kind === 'reminder' ? tr('Reminder: Your open tickets') : `[Whups #${t.id}] ${kind === 'delete' ? `${tr('Deleted:')} ` : kind === 'notify' ? 'Re: ' : ''}${t.summary}`;
  return {
    template: `${kind}_email`,
    lang: langTag(lang),
    subject,
    text: renderPhpView(view, cat, scope),
    fromName: 'Whups',
    source: `${CONFIG}/${kind}_email.plain.php + ${TICKET} + ${APP}/locale/${lang}/LC_MESSAGES/whups.mo`,
  };
};

export const whups: Adapter = {
  product: 'whups',
  packages: [{ deb: 'php-horde-whups' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const l = labels(LIB.map((f) => readFileSync(join(root, f), 'utf8')).join('\n'));
    const langs = ['en', ...localesWith(join(root, APP, 'locale'), 'LC_MESSAGES/whups.mo')];
    return langs.flatMap((lang) => {
      const cat = lang === 'en' ? new Map<string, string>() : readCatalog(join(root, APP, 'locale', lang, 'LC_MESSAGES', 'whups.mo'));
      return ['create', 'notify', 'delete', 'reminder'].flatMap((kind) => repsOf(reps).map((n) => renderOne(root, lang, cat, l, kind, rng(`${kind}:${lang}:${n}`))));
    });
  },
};
