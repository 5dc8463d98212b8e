/**
 * Cacti (Debian cacti): the administrator mails `admin_email()` sends (poller overruns, disabled
 * plugins, missing files, database offline…) and the settings test mail of `email_test()`. The
 * warnings are every `admin_email(__('…'), __('…', args))` call in the site's PHP whose message is
 * one literal, read from the files; the test mail is laid out as `email_test()` concatenates its
 * strings (the SMTP method). Strings are translated by `locales/LC_MESSAGES/<lang>.mo`; `mailer()`
 * sends the HTML with `<br>` appended and a text part with the breaks turned into newlines and the
 * tags stripped. Decoys: poller ids, seconds, process counts, ports, host names, paths. Label none.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gettext, readCatalog, type Catalog } from '../gettext.js';
import { repsOf } from '../locales.js';
import { sprintf, unquote } from '../php.js';
import { host, ipv4, person, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const SITE = 'usr/share/cacti/site';
const LOCALES = `${SITE}/locales/LC_MESSAGES`;
const FUNCTIONS = `${SITE}/lib/functions.php`;

interface Warning { readonly subject: string; readonly message: string; readonly args: readonly string[]; readonly file: string }

const phpFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (f === 'vendor' || f === 'locales') return [];
    // The package links a few folders to /var; those links dangle in an unpacked tree.
    const st = statSync(p, { throwIfNoEntry: false });
    return st?.isDirectory() === true ? phpFiles(p) : st !== undefined && f.endsWith('.php') ? [p] : [];
  });

const CALL = /admin_email\(__\(('(?:[^'\\]|\\.)*')\),\s*__\(('(?:[^'\\]|\\.)*')\s*(,[^;]*)?\)\);/g;

/** Every `admin_email` call whose subject and message are single literals. */
const warnings = (root: string): Warning[] =>
  phpFiles(join(root, SITE)).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(CALL)].map((m) => ({
      subject: unquote(m[1] ?? ''),
      message: unquote(m[2] ?? ''),
      args: (m[3] ?? '').split(',').slice(1).map((a) => a.trim()),
      file: relative(root, file),
    })));

/** A value for one argument of a warning, chosen by what the PHP expression names. */
const argValue = (expr: string, r: Rng): string => {
  if (/poller_id/.test(expr)) return String(r.int(1, 6));
  if (/plugin/.test(expr)) return r.pick(['thold', 'monitor', 'syslog', 'flowview', 'weathermap']);
  if (/page/.test(expr)) return r.pick(['graph_view.php', 'host.php', 'data_sources.php', 'aggregate_graphs.php']);
  if (/error|message|issue/.test(expr)) return r.pick([`Call to undefined function thold_check_threshold() in line ${r.int(10, 2000)}`, `SQLSTATE[HY000] [2002] Connection refused (${ipv4(r)}:3306)`, `Data source ${r.int(100, 9999)} missing`]);
  if (/path|spine/.test(expr)) return r.pick(['/usr/share/cacti/site/lib/rrd.php', '/usr/sbin/spine', '/usr/share/cacti/site/include/auth.php']);
  if (/task_type/.test(expr)) return r.pick(['Poller', 'Boost', 'Automation']);
  return String(r.int(2, 900));
};

const mail = (htmlBody: string): { html: string; text: string } => {
  const html = `${htmlBody}<br>`;
  return { html, text: html.replace(/<br\s*\/?>|<\/br>/gi, '\n').replace(/<[^>]*>/g, '') };
};

/** `email_test()`'s message with the SMTP method, each string looked up in the catalogue (and required in the source). */
const testMail = (src: string, cat: Catalog, r: Rng): string => {
  const t = (id: string): string => {
    if (!src.includes(`__('${id.replace(/'/g, "\\'")}')`)) throw new Error(`__('${id}') not in email_test() of ${FUNCTIONS}`);
    return gettext(cat, id);
  };
  const b = (label: string, value: string): string => `<b>${t(label)}</b>: ${value}<br>`;
  const auth = r.chance(0.6);
  const user = person(r).username;
  let out = `${t('This is a test message generated from Cacti.  This message was sent to test the configuration of your Mail Settings.')}<br><br>`;
  out += `${t('Your email settings are currently set as follows')}<br><br><b>${t('Method')}</b>: ${t('SMTP')}<br>`;
  out += b('Device', r.pick([`smtp.${host(r).replace(/^[a-z]+\./, '')}`, ipv4(r)])) + b('Port', String(r.pick([25, 465, 587, 2525])));
  out += auth ? `${b('Authentication', 'true')}${b('Username', user)}<b>${t('Password')}</b>: (${t('Not Shown for Security Reasons')})<br>${b('Security', r.pick(['tls', 'ssl', 'none']))}` : b('Authentication', 'false');
  out += r.chance(0.5) ? b('Ping Results', t('Success')) : b('Ping Results', t('Bypassed'));
  return `${out}<br>`;
};

export const cacti: Adapter = {
  product: 'cacti',
  packages: [{ deb: 'cacti' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const all = warnings(root);
    if (all.length < 5) throw new Error(`only ${all.length} admin_email calls found`);
    const functions = readFileSync(join(root, FUNCTIONS), 'utf8');
    const testSrc = functions.slice(functions.indexOf('function email_test()'), functions.indexOf('function', functions.indexOf('function email_test()') + 10));
    const langs = ['en', ...readdirSync(join(root, LOCALES)).filter((f) => f.endsWith('.mo')).map((f) => f.slice(0, -3)).sort()];
    return langs.flatMap((lang): Rendered[] => {
      const cat = lang === 'en' ? new Map<string, string>() : readCatalog(join(root, LOCALES, `${lang}.mo`));
      const source = `${lang === 'en' ? '' : ` + ${LOCALES}/${lang}.mo`}`;
      const warned = repsOf(reps * 2).map((n): Rendered => {
        const r = rng(`warning:${lang}:${n}`);
        const w = r.pick(all);
        const { html, text } = mail(sprintf(gettext(cat, w.message).replace(/%d/g, '%s'), ...w.args.map((a) => argValue(a, r))));
        return { template: 'admin_warning', lang, subject: gettext(cat, w.subject), html, text, fromName: 'Cacti', source: `${w.file}${source}` };
      });
      const tested = repsOf(reps).map((n): Rendered => {
        const r = rng(`test:${lang}:${n}`);
        const { html, text } = mail(testMail(testSrc, cat, r));
        return { template: 'email_test', lang, subject: gettext(cat, 'Cacti Test Message'), html, text, fromName: 'Cacti', source: `${FUNCTIONS} (email_test)${source}` };
      });
      return [...warned, ...tested];
    });
  },
};
