/**
 * PostfixAdmin (Debian postfixadmin): the password-recovery mail of `public/password-recover.php`
 * (subject `pPassword_welcome`, body `pPassword_recovery_email_body` with the reset URL, whose
 * `code` is a `generate_password()` token) and the welcome mail a new mailbox gets
 * (`pSendmail_subject_text` with the configured `welcome_text`, label none), in every
 * `languages/*.lang` file; keys a language lacks fall back to English, as `language.php` does.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { phpAssignments, sprintf } from '../php.js';
import { repsOf } from '../locales.js';
import { host, person, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const APP = 'usr/share/postfixadmin';
// Language files named by PostfixAdmin's own codes, as tags.
const TAGS: Record<string, string> = { cn: 'zh-CN', tw: 'zh-TW', ua: 'uk', 'pt-br': 'pt-BR', 'pt-pt': 'pt-PT' };
const POSSIBLE = '2345678923456789abcdefghijkmnpqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ';

/** generate_password(): 12 distinct characters of PostfixAdmin's alphabet. */
const token = (r: Rng): string => {
  let out = '';
  while (out.length < 12) {
    const c = r.pick([...POSSIBLE]);
    if (!out.includes(c)) out += c;
  }
  return out;
};

const render = (strings: Map<string, string>, en: Map<string, string>, file: string, template: string, r: Rng, welcome: string): Rendered => {
  const s = (k: string): string => strings.get(k) || en.get(k) || '';
  const lang = TAGS[file.replace('.lang', '')] ?? file.replace('.lang', '');
  const user = person(r);
  const domain = host(r);
  const address = `${user.username}@${domain.replace(/^(www|app|portal|accounts|mail)\./, '')}`;
  const source = `${APP}/languages/${file}`;
  if (template === 'welcome') return { template, lang, subject: s('pSendmail_subject_text'), text: welcome, source: `${source} + etc/postfixadmin/config.inc.php` };
  const url = `https://${r.pick(['mail.', 'postfixadmin.', ''])}${domain.replace(/^(www|app|portal|accounts|mail)\./, '')}${r.pick(['/postfixadmin', ''])}/users/password-change.php?username=${encodeURIComponent(address)}&code=${token(r)}`;
  return { template, lang, subject: s('pPassword_welcome'), text: sprintf(s('pPassword_recovery_email_body'), url), secret: { kind: 'magic_link', value: url, link_purpose: 'password_reset' }, source: `${APP}/public/password-recover.php + ${source}` };
};

export const postfixadmin: Adapter = {
  product: 'postfixadmin',
  packages: [{ deb: 'postfixadmin' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const conf = readFileSync(join(root, 'etc/postfixadmin/config.inc.php'), 'utf8');
    const adminName = /\$CONF\['admin_name'\]\s*=\s*'([^']*)'/.exec(conf)?.[1] ?? 'Postmaster';
    const welcome = (/\$CONF\['welcome_text'\] = <<<EOM\n([\s\S]*?)\nEOM;/.exec(conf)?.[1] ?? '').concat('\n');
    const read = (f: string): Map<string, string> => phpAssignments(readFileSync(join(root, APP, 'languages', f), 'utf8'), 'PALANG', { admin_name: adminName });
    const en = read('en.lang');
    const files = readdirSync(join(root, APP, 'languages')).filter((f) => f.endsWith('.lang')).sort();
    return files.flatMap((f) => {
      const strings = read(f);
      return ['password_recovery', 'welcome'].flatMap((t) => repsOf(t === 'welcome' ? 1 : reps).map((n) => render(strings, en, f, t, rng(`${t}:${f}:${n}`), welcome)));
    });
  },
};
