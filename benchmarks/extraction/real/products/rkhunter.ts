/**
 * Rootkit Hunter (Debian rkhunter): the daily report `etc/cron.daily/rkhunter` mails (subject
 * `[rkhunter] <host> - Daily report`), i.e. the warnings of `rkhunter --cronjob
 * --report-warnings-only`, written from the message catalogue `var/lib/rkhunter/db/i18n/<lang>`
 * (`KEY:text` lines with `$1`… placeholders) in rkhunter's layout: `<Warning>: <message>` and
 * continuation lines indented by nine spaces. File-property changes carry SHA-256 hashes, inodes,
 * sizes and dates; hidden files carry paths. Label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hex, type Rng } from '../random.js';
import { repsOf } from '../locales.js';
import type { Adapter, Rendered } from '../types.js';

const CRON = 'etc/cron.daily/rkhunter';
const I18N = 'var/lib/rkhunter/db/i18n';
// Catalogues in UTF-8; rkhunter's own tag for each.
const LANGS: Record<string, string> = { en: 'en', de: 'de', ja: 'ja', 'tr.utf8': 'tr', 'zh.utf8': 'zh' };
const BINS = ['/usr/bin/ssh', '/usr/sbin/sshd', '/usr/bin/sudo', '/bin/login', '/usr/bin/passwd', '/usr/bin/curl', '/usr/sbin/cron', '/bin/ps'];

const catalogue = (text: string): Map<string, string> => {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+):(.*)$/.exec(line);
    if (m !== null && !out.has(m[1] ?? '')) out.set(m[1] ?? '', m[2] ?? '');
  }
  return out;
};

const stampOf = (r: Rng): string => `${2024 + r.int(0, 1)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')} ${String(r.int(0, 23)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}`;

const report = (m: (key: string, ...args: string[]) => string, r: Rng): string => {
  const warn = m('MSG_TYPE_WARNING');
  const pad = ' '.repeat(9);
  const lines: string[] = [];
  for (let i = r.int(1, 3); i > 0; i -= 1) {
    const size = r.int(20000, 900000);
    lines.push(`${warn}: ${m('FILE_PROP_CHANGED')}`, `${pad}${m('FILE_PROP_CHANGED2', r.pick(BINS))}`, `${pad}${m('FILE_PROP_SYSHASH', hex(r, 64))}`, `${pad}${m('FILE_PROP_RKHHASH', hex(r, 64))}`);
    if (r.chance(0.6)) lines.push(`${pad}${m('FILE_PROP_INODE', String(r.int(1e5, 9e6)), String(r.int(1e5, 9e6)))}`, `${pad}${m('FILE_PROP_SIZE', String(size + r.int(8, 4096)), String(size))}`);
    lines.push(`${pad}${m('FILE_PROP_SYSDTM', stampOf(r))}`, `${pad}${m('FILE_PROP_RKHDTM', stampOf(r))}`);
  }
  if (r.chance(0.5)) lines.push(`${warn}: ${m('FILESYSTEM_HIDDEN_FILE_FOUND', r.pick(['/dev/.udev/rules.d/root.rules', '/etc/.java', '/usr/share/man/man1/..%']))}`);
  if (r.chance(0.5)) lines.push(`${warn}: ${m('FILESYSTEM_HIDDEN_DIR_FOUND', r.pick(['/dev/.lxc', '/etc/.git', '/var/tmp/.X11-unix']))}`);
  return `${lines.join('\n')}\n`;
};

export const rkhunter: Adapter = {
  product: 'rkhunter',
  packages: [{ deb: 'rkhunter' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const subjectLine = /echo "Subject: ([^"]*)"/.exec(readFileSync(join(root, CRON), 'utf8'))?.[1];
    if (subjectLine === undefined) throw new Error(`subject not found in ${CRON}`);
    const en = catalogue(readFileSync(join(root, I18N, 'en'), 'utf8'));
    return Object.entries(LANGS).flatMap(([file, lang]) => {
      const cat = catalogue(readFileSync(join(root, I18N, file), 'utf8'));
      const m = (key: string, ...args: string[]): string => (cat.get(key) || en.get(key) || key).replace(/\$(\d)/g, (_x, i: string) => args[Number(i) - 1] ?? '');
      return repsOf(reps * 4).map((n): Rendered => {
        const r = rng(`daily:${lang}:${n}`);
        const host = `${r.pick(['web', 'mx', 'db', 'gw'])}${r.int(1, 40)}`;
        return { template: 'daily_report', lang, subject: subjectLine.replace('$(hostname)', host), text: report(m, r), fromName: 'root', source: `${CRON} + ${I18N}/${file}` };
      });
    });
  },
};
