/**
 * Kronolith, Horde's calendar (Debian php-horde-kronolith): the event reminder mail of
 * `templates/alarm/mail.plain.php` (the text part Kronolith sends; the subject is the event's
 * title, as Horde's mail alarm sends it), its `_("…")` strings translated by
 * `locale/<lang>/LC_MESSAGES/kronolith.mo`, and PHP's rule that a newline right after `?>` is not
 * output. Dates and times in the language's format, places, descriptions with numbers. Label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gettext, readCatalog, type Catalog } from '../gettext.js';
import { langTag, localesWith, repsOf } from '../locales.js';
import { date, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const APP = 'usr/share/horde/kronolith';
const TEMPLATE = `${APP}/templates/alarm/mail.plain.php`;

/** Evaluates the template's `<?php … ?>` blocks: `echo _("…")` through the catalogue, other expressions from `values`. */
export const renderPhpTemplate = (src: string, cat: Catalog, values: Readonly<Record<string, string>>): string =>
  src.replace(/<\?php\s+([\s\S]*?)\s*\?>\n?/g, (_m, code: string) => {
    const t = /^echo _\("((?:[^"\\]|\\.)*)"\)$/.exec(code);
    if (t !== null) return gettext(cat, (t[1] ?? '').replace(/\\"/g, '"'));
    if (code in values) return values[code] ?? '';
    throw new Error(`unhandled PHP in ${TEMPLATE}: ${code}`);
  });

const valuesFor = (r: Rng, lang: string): Record<string, string> => {
  const d = date(r);
  const locale = lang.replace('_', '-');
  const safe = (f: () => string): string => { try { return f(); } catch { return d.toISOString().slice(0, 10); } };
  const twentyFour = r.chance(0.6);
  const time = twentyFour ? d.toISOString().slice(11, 16) : `${String(((d.getUTCHours() + 11) % 12) + 1).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}${d.getUTCHours() < 12 ? 'am' : 'pm'}`;
  return {
    'echo $this->event->getTitle($this->user)': r.pick(['Quarterly review Q3', 'Dentist', 'Team meeting #42', 'Flight LH 2214', 'Invoice 2024-0815 due', 'Board call']),
    'echo $this->event->getLocation($this->user)': r.pick(['Room 4.12', 'Hauptstraße 17, 10115 Berlin', 'Zoom 845 2291 0034', 'Gate B32', '221B Baker Street']),
    'echo $this->start->strftime($this->dateFormat)': safe(() => new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeZone: 'UTC' }).format(d)),
    'echo $this->event->start->format($this->timeFormat)': time,
    'if (!$this->event->isPrivate($this->user)) echo $this->event->description': r.pick(['', `Agenda: budget (${r.int(10, 99)}k EUR), hiring, roadmap.`, `Bring ${r.int(2, 9)} copies of the report.`, `Booking ref ${r.chars('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 6)}, seat ${r.int(1, 40)}${r.pick(['A', 'C', 'F'])}.`]),
  };
};

export const kronolith: Adapter = {
  product: 'kronolith',
  packages: [{ deb: 'php-horde-kronolith' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const src = readFileSync(join(root, TEMPLATE), 'utf8');
    const langs = ['en', ...localesWith(join(root, APP, 'locale'), 'LC_MESSAGES/kronolith.mo')];
    return langs.flatMap((lang) => {
      const cat = lang === 'en' ? new Map<string, string>() : readCatalog(join(root, APP, 'locale', lang, 'LC_MESSAGES', 'kronolith.mo'));
      return repsOf(reps).map((n): Rendered => {
        const values = valuesFor(rng(`alarm:${lang}:${n}`), lang);
        return {
          template: 'alarm_mail',
          lang: langTag(lang),
          subject: values['echo $this->event->getTitle($this->user)'] ?? '',
          text: renderPhpTemplate(src, cat, values),
          fromName: 'Horde',
          source: `${TEMPLATE} + ${APP}/locale/${lang}/LC_MESSAGES/kronolith.mo`,
        };
      });
    });
  },
};
