/**
 * LoopBack 3 (npm `loopback`): the e-mail verification `User.prototype.verify` sends
 * (`common/models/user.js`): the subject and text are its `g.f(…)` messages, looked up as
 * strong-globalize does (the key is the MD5 of the message) in `intl/<lang>/messages.json` with
 * `{0}` filled; the HTML is `templates/verify.ejs` with `verifyHref` (its `<%= %>` tags escaped as
 * EJS does). The link is the confirm method's URL with `uid`, `redirect` and the default generator's
 * 64 random bytes in hex as `token` (verify_email).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { hex, host, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const USER = 'common/models/user.js';
const VIEW = 'templates/verify.ejs';

const literal = (src: string, anchor: RegExp): string => {
  const m = anchor.exec(src);
  if (m === null) throw new Error(`${anchor.source} not found in ${USER}`);
  return [...(m[1] ?? '').matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((p) => (p[1] ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\'/g, "'")).join('');
};

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c] ?? c);

/** An EJS template with only `<%= name %>` tags. */
const ejs = (src: string, vars: Readonly<Record<string, string>>): string =>
  src.replace(/<%([=-]?)\s*(\w+)\s*%>/g, (_m, kind: string, name: string) => {
    if (kind === '' || !(name in vars)) throw new Error(`unhandled EJS tag in ${VIEW}: ${name}`);
    return kind === '=' ? escapeHtml(vars[name] ?? '') : (vars[name] ?? '');
  });

const href = (r: Rng): string => {
  const https = r.chance(0.7);
  const port = r.pick([https ? 443 : 80, 3000, 8080]);
  const display = port === (https ? 443 : 80) ? '' : `:${port}`;
  const query = new URLSearchParams({ uid: String(r.chance(0.5) ? r.int(1, 99999) : hex(r, 24)), redirect: r.pick(['/', '/verified', '/#/login']) });
  return `${https ? 'https' : 'http'}://${host(r)}${display}${r.pick(['/api', '/api/v1'])}/${r.pick(['users', 'Users', 'accounts', 'customers'])}/confirm?${query.toString()}&token=${hex(r, 128)}`;
};

export const loopback: Adapter = {
  product: 'loopback',
  packages: [{ npm: 'loopback@3.28.0' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const src = readFileSync(join(root, USER), 'utf8');
    const subjectMsg = literal(src, /verifyOptions\.subject \|\| g\.f\(((?:'(?:[^'\\]|\\.)*'\s*\+?\s*)+)\)/);
    const textMsg = literal(src, /verifyOptions\.text \|\| g\.f\(((?:'(?:[^'\\]|\\.)*'\s*\+?\s*)+),/);
    const key = (msg: string): string => createHash('md5').update(msg).digest('hex');
    const view = readFileSync(join(root, VIEW), 'utf8');
    const langs = readdirSync(join(root, 'intl')).sort();
    return langs.flatMap((lang) => {
      const messages = JSON.parse(readFileSync(join(root, 'intl', lang, 'messages.json'), 'utf8')) as Record<string, string>;
      return repsOf(reps).map((n): Rendered => {
        const url = href(rng(`verify:${lang}:${n}`));
        return {
          template: 'verify',
          lang,
          subject: messages[key(subjectMsg)] ?? subjectMsg,
          text: (messages[key(textMsg)] ?? textMsg.replace('%s', '{0}')).replace('{0}', url),
          html: ejs(view, { verifyHref: url }),
          secret: { kind: 'magic_link', value: url, link_purpose: 'verify_email' },
          source: `${USER} + ${VIEW} + intl/${lang}/messages.json`,
        };
      });
    });
  },
};
