/**
 * Horde (Debian php-horde-core): the "Confirm new email address" mail of
 * `Horde/Core/Prefs/Identity.php` (`verifyIdentity`), its two strings translated by
 * `data/Horde_Core/locale/<lang>/LC_MESSAGES/Horde_Core.mo` and the body wrapped at 76 columns as
 * `Horde_String::wrap` does (long words are not broken). The secret is the `emailconfirm` service
 * link with the `h` hash (a `Horde_Support_Randomid`), verify_email.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gettext, readCatalog } from '../gettext.js';
import { langTag, localesWith, repsOf } from '../locales.js';
import { email, host, urlsafe } from '../random.js';
import { sprintf } from '../php.js';
import type { Adapter, Rendered } from '../types.js';

const SRC = 'usr/share/php/Horde/Core/Prefs/Identity.php';
const LOCALE = 'usr/share/php/data/Horde_Core/locale';

/** Greedy wrap at `width` on spaces, existing line breaks kept, words longer than the width left whole. */
export const wrap = (text: string, width: number): string =>
  text.split('\n').map((line) => {
    const out: string[] = [];
    let cur = '';
    for (const word of line.split(' ')) {
      if (cur !== '' && cur.length + 1 + word.length > width) {
        out.push(cur);
        cur = word;
      } else cur = cur === '' ? word : `${cur} ${word}`;
    }
    out.push(cur);
    return out.join('\n');
  }).join('\n');

/** The PHP double-quoted literal passed to the translation function right after `anchor`. */
const literalAfter = (src: string, anchor: string): string => {
  const at = src.indexOf(anchor);
  const m = /Horde_Core_Translation::t\("((?:[^"\\]|\\.)*)"\)/.exec(src.slice(at));
  if (at < 0 || m === null) throw new Error(`string after ${anchor} not found in ${SRC}`);
  return (m[1] ?? '').replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
};

export const horde: Adapter = {
  product: 'horde',
  packages: [{ deb: 'php-horde-core' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const src = readFileSync(join(root, SRC), 'utf8');
    const bodyId = literalAfter(src, '$message = sprintf(');
    const subjectId = literalAfter(src, "addHeader('Subject'");
    const langs = ['en', ...localesWith(join(root, LOCALE), 'LC_MESSAGES/Horde_Core.mo')];
    return langs.flatMap((lang) => {
      const cat = lang === 'en' ? new Map<string, string>() : readCatalog(join(root, LOCALE, lang, 'LC_MESSAGES', 'Horde_Core.mo'));
      return repsOf(reps).map((n): Rendered => {
        const r = rng(`emailconfirm:${lang}:${n}`);
        const url = `https://${host(r).replace(/^(www|app|portal|accounts)\./, 'mail.')}${r.pick(['/horde', ''])}/services/confirm.php?h=${urlsafe(r, 23)}`;
        return {
          template: 'confirm_email_address',
          lang: langTag(lang),
          subject: gettext(cat, subjectId),
          text: wrap(sprintf(gettext(cat, bodyId), email(r), url), 76),
          secret: { kind: 'magic_link', value: url, link_purpose: 'verify_email' },
          source: `${SRC} + ${LOCALE}/${lang}/LC_MESSAGES/Horde_Core.mo`,
        };
      });
    });
  },
};
