/**
 * Roundcube's plugins (Debian roundcube-plugins): the report `markasjunk`'s `email_learn` driver
 * sends when a user marks a message as spam or as not spam, to the address a site configures:
 * the subject is `markasjunk_email_subject` of the plugin's `config.inc.php.dist` with its `%t`,
 * `%u`, `%l`, `%d`, `%i` filled as `_parse_vars` does, the text is the driver's
 * `"<Spam|Ham> report from $product"`, and the reported message is attached as message/rfc822
 * (the attachment mode the shipped configuration turns on). The reported messages are generated
 * (invoices, shipping notices and offers with amounts, order numbers and dates as decoys). Label
 * none; the report is English only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { date, email, host, person, siteName, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const PLUGIN = 'usr/share/roundcube/plugins/markasjunk';
const DRIVER = `${PLUGIN}/drivers/email_learn.php`;
const CONFIG = `${PLUGIN}/config.inc.php.dist`;

const reported = (r: Rng, spam: boolean): { subject: string; raw: string } => {
  const from = spam ? `${r.pick(['billing', 'promo', 'support'])}@${r.pick(['deals-4u.test', 'secure-pay.invalid', 'winner.example'])}` : email(r);
  const subject = spam
    ? r.pick([`Invoice #${r.int(10000, 99999)} overdue`, `Your parcel ${r.chars('ABCDEFGHJKLMNPRSTUVWXYZ', 2)}${r.int(100000000, 999999999)}DE is on hold`, `Only today: ${r.int(40, 90)}% off`])
    : r.pick([`Order ${r.int(1000, 9999)}-${r.int(100, 999)} shipped`, `Minutes of the ${date(r).toISOString().slice(0, 10)} meeting`, `Re: quote ${r.int(100, 999)}/${r.int(2024, 2025)}`]);
  const body = spam
    ? `Please settle the amount of ${r.int(90, 2500)}.${r.int(10, 99)} EUR before ${date(r).toISOString().slice(0, 10)}.\r\nReference: ${r.int(100000, 999999)}-${r.int(10, 99)}\r\nHotline: +44 20 ${r.int(1000, 9999)} ${r.int(1000, 9999)}\r\n`
    : `Hi,\r\n\r\nthe shipment with ${r.int(2, 40)} items left our warehouse today, tracking ${r.int(10 ** 11, 10 ** 12 - 1)}.\r\n\r\nRegards,\r\n${person(r).full}\r\n`;
  const raw = `From: ${from}\r\nTo: ${email(r)}\r\nSubject: ${subject}\r\nDate: ${date(r).toUTCString()}\r\nMessage-ID: <${r.int(1e8, 9e8)}@${host(r)}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n${body}`;
  return { subject, raw };
};

export const roundcube: Adapter = {
  product: 'roundcube',
  packages: [{ deb: 'roundcube-plugins' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const subjectFormat = /\$config\['markasjunk_email_subject'\] = '([^']*)';/.exec(readFileSync(join(root, CONFIG), 'utf8'))?.[1];
    const text = /\$message_text\s*= \(\$spam \? '(\w+)' : '(\w+)'\) \. " ([^"$]*)\$product";/.exec(readFileSync(join(root, DRIVER), 'utf8'));
    if (subjectFormat === undefined || text === null) throw new Error(`markasjunk_email_subject or the report text not found in ${CONFIG} / ${DRIVER}`);
    return (['spam', 'ham'] as const).flatMap((kind) => repsOf(reps * 4).map((n): Rendered => {
      const r = rng(`${kind}:${n}`);
      const spam = kind === 'spam';
      const user = person(r).username;
      const domain = host(r).replace(/^[a-z]+\./, '');
      const product = r.pick(['Roundcube Webmail', 'Webmail', `${siteName(r)} Mail`]);
      const subject = subjectFormat.replace(/%u/g, `${user}@${domain}`).replace(/%t/g, kind).replace(/%l/g, user).replace(/%d/g, domain).replace(/%i/g, `${user}@${domain}`);
      const m = reported(r, spam);
      return {
        template: `${kind}_report`,
        lang: 'en',
        subject,
        text: `${spam ? text[1] : text[2]} ${text[3]}${product}`,
        fromName: person(r).full,
        attachments: [{ filename: `${m.subject}.eml`, contentType: 'message/rfc822', content: m.raw }],
        source: `${DRIVER} + ${CONFIG}`,
      };
    }));
  },
};
