/**
 * Nag, Horde's task list (Debian php-horde-nag): the due-task reminder of `lib/Task.php`
 * (`toAlarm`), text from `templates/alarm/mail.plain.php` and HTML from
 * `templates/alarm/mail.html.php`, their strings translated by `locale/<lang>/LC_MESSAGES/nag.mo`;
 * the subject is the task's name, as Horde's mail alarm sends it. Dates in the language's format,
 * 12- or 24-hour times, descriptions with numbers, the preferences link. Label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCatalog } from '../gettext.js';
import { langTag, localesWith, repsOf } from '../locales.js';
import { renderPhpView, type PhpScope } from '../php-view.js';
import { date, hex, host, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const APP = 'usr/share/horde/nag';
const TEXT = `${APP}/templates/alarm/mail.plain.php`;
const HTML = `${APP}/templates/alarm/mail.html.php`;

const TASKS = ['Renew TLS certificate for mx2', 'Pay invoice 2024-0815', 'Call Dr. Weber re: results', 'Submit expense report Q3', 'Backup NAS (disk 3 of 4)', 'Order 12 toner cartridges'];
const DESCS = ['', 'Ref. ticket #4711, see attachment.', 'Budget: 1,250.00 EUR, PO 88-2291.', 'Room 3.14, bring the signed contract (2 copies).', 'Call +49 30 1234567 before 17:00.'];

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const scopeFor = (r: Rng, lang: string): PhpScope & { name: string } => {
  const d = date(r);
  const name = r.pick(TASKS);
  const desc = r.pick(DESCS);
  const site = host(r).replace(/^(www|app|portal|accounts)\./, 'mail.');
  const locale = lang.replace('_', '-');
  let day: string;
  try {
    day = new Intl.DateTimeFormat(locale, { dateStyle: r.pick(['short', 'medium', 'full'] as const), timeZone: 'UTC' }).format(d);
  } catch {
    day = d.toISOString().slice(0, 10);
  }
  const h = d.getUTCHours();
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  const time = r.chance(0.5) ? `${String(h).padStart(2, '0')}:${mm}` : `${String(((h + 11) % 12) + 1).padStart(2, '0')}:${mm}${h < 12 ? 'am' : 'pm'}`;
  const view = `https://${site}/horde/nag/view.php?tasklist=${hex(r, 32)}&task=${hex(r, 32)}`;
  const prefs = r.chance(0.8) ? `https://${site}/horde/services/prefs.php?app=nag` : '';
  let row = 0;
  return {
    name,
    '$this->task->name': name,
    '$this->h($this->task->name)': escape(name),
    '$this->task->desc': desc,
    "$GLOBALS['injector']->getInstance('Horde_Core_Factory_TextFilter')->filter($this->task->desc, 'text2html', array('parselevel' => Horde_Text_Filter_Text2html::MICRO, 'callback' => null))": escape(desc),
    '$this->due->strftime($this->dateFormat)': day,
    '$this->due->format($this->timeFormat)': time,
    '$url = new Horde_Url($this->task->view_link); echo $url->remove(session_name())': view,
    '$this->imageId': `${hex(r, 20)}@${site}`,
    '$i = 0': () => { row = 0; return ''; },
    "if ($i++ % 2) echo ' bgcolor=\"#f1f1f1\"'": () => (row++ % 2 === 1 ? ' bgcolor="#f1f1f1"' : ''),
    'strlen($this->task->desc)': desc !== '',
    '$this->prefsUrl': prefs === '' ? false : prefs,
  };
};

export const nag: Adapter = {
  product: 'nag',
  packages: [{ deb: 'php-horde-nag' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const text = readFileSync(join(root, TEXT), 'utf8');
    const html = readFileSync(join(root, HTML), 'utf8');
    const langs = ['en', ...localesWith(join(root, APP, 'locale'), 'LC_MESSAGES/nag.mo')];
    return langs.flatMap((lang) => {
      const cat = lang === 'en' ? new Map<string, string>() : readCatalog(join(root, APP, 'locale', lang, 'LC_MESSAGES', 'nag.mo'));
      return repsOf(reps).map((n): Rendered => {
        const scope = scopeFor(rng(`alarm:${lang}:${n}`), lang);
        return {
          template: 'task_alarm',
          lang: langTag(lang),
          subject: scope.name,
          text: renderPhpView(text, cat, scope),
          html: renderPhpView(html, cat, scope),
          fromName: 'Horde',
          source: `${TEXT} + ${HTML} + ${APP}/locale/${lang}/LC_MESSAGES/nag.mo`,
        };
      });
    });
  },
};
