/**
 * needrestart (Debian needrestart): the mail `etc/needrestart/notify.d/600-mail` sends a user
 * whose session runs outdated binaries: its `eval_gettext`/`gettext` lines translated by
 * `usr/share/locale/<lang>/LC_MESSAGES/needrestart-notify.mo`, then the `name[pid,…]` list
 * needrestart pipes in, folded at 72 columns as the script does; the subject is not translated.
 * Label none.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gettext, readCatalog, type Catalog } from '../gettext.js';
import { localesWith, repsOf } from '../locales.js';
import type { Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const SCRIPT = 'etc/needrestart/notify.d/600-mail';
const LOCALE = 'usr/share/locale';

const processes = (r: Rng): string =>
  Array.from({ length: r.int(1, 5) }, () => `${r.pick(['bash', 'tmux: server', 'ssh-agent', 'python3', 'vim', 'systemd', 'gpg-agent', 'node'])}[${Array.from({ length: r.int(1, 3) }, () => r.int(300, 99999)).join(',')}]`).join(', ');

const render = (script: string, cat: Catalog, lang: string, r: Rng): Rendered => {
  const first = /eval_gettext '([^']*)'/.exec(script)?.[1] ?? '';
  const second = /gettext "([^"]*)"/.exec(script)?.[1] ?? '';
  const subject = /-s "([^"]*)"/.exec(script)?.[1] ?? '';
  const host = `${r.pick(['ws', 'build', 'login', 'dev'])}${r.int(1, 60)}`;
  const vars: Record<string, string> = { _NR_FQDN: `${host}.${r.pick(['example.net', 'corp.example.org'])}`, NR_SESSION: r.pick([`session #${r.int(1, 400)}`, `/dev/pts/${r.int(0, 9)}`]) };
  const sub = (s: string): string => s.replace(/\$(\w+)/g, (m, k: string) => vars[k] ?? m);
  const body = `${sub(gettext(cat, first))}\n\n${gettext(cat, second)}\n\n${processes(r)}\n`;
  return {
    template: 'notify_mail',
    lang,
    subject: subject.replace('$(hostname)', host),
    text: execFileSync('fold', ['-s', '-w', '72'], { input: body, encoding: 'utf8' }),
    fromName: 'root',
    source: `${SCRIPT} + ${LOCALE}/${lang}/LC_MESSAGES/needrestart-notify.mo`,
  };
};

export const needrestart: Adapter = {
  product: 'needrestart',
  packages: [{ deb: 'needrestart' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const script = readFileSync(join(root, SCRIPT), 'utf8');
    const langs = ['en', ...localesWith(join(root, LOCALE), 'LC_MESSAGES/needrestart-notify.mo')];
    return langs.flatMap((lang) => {
      const cat = lang === 'en' ? new Map<string, string>() : readCatalog(join(root, LOCALE, lang, 'LC_MESSAGES', 'needrestart-notify.mo'));
      return repsOf(reps * 5).map((n) => render(script, cat, lang, rng(`notify:${lang}:${n}`)));
    });
  },
};
