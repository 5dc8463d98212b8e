/**
 * Legacy charsets: the bodies and the subject written in the charset mail in the mail's language
 * used to travel in (ISO-8859-x, Windows-125x, KOI8, ISO-2022-JP, Shift_JIS, GB2312, Big5,
 * EUC-KR…), quoted-printable, base64 or 8bit; a second charset of the language under the label
 * Outlook-era mailers write; and HTML in US-ASCII with numeric character references. A mail whose
 * text the charset cannot hold (more than 1 % of its letters) is left out.
 */
import { unencodable } from '../charsets.js';
import { withMail, type Case, type Encoding } from '../mail.js';
import type { Variant } from '../variant.js';

interface Legacy {
  readonly label: string;
  readonly encoder?: string;
}

const WESTERN = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'sv', 'da', 'nb', 'no', 'nn', 'fi', 'ca', 'gl', 'eu', 'id', 'ms', 'sw', 'ga', 'cy', 'oc', 'sc', 'af', 'is', 'rw'];
const CENTRAL = ['pl', 'cs', 'sk', 'hu', 'hr', 'sl', 'bs', 'sq', 'ro'];

/** The language's usual legacy charset and a second one (label as written, encoder when it is an alias). */
const legacyOf = (tag: string): readonly [Legacy, Legacy] | undefined => {
  const t = tag.toLowerCase();
  const base = t.split('-')[0] ?? '';
  if (WESTERN.includes(base)) return [{ label: 'windows-1252' }, { label: 'iso-8859-15' }];
  if (CENTRAL.includes(base)) return [{ label: 'iso-8859-2' }, { label: 'windows-1250' }];
  if (base === 'ru') return [{ label: 'koi8-r' }, { label: 'windows-1251' }];
  if (base === 'uk') return [{ label: 'koi8-u' }, { label: 'windows-1251' }];
  if (['bg', 'mk', 'sr', 'be'].includes(base)) return [{ label: 'windows-1251' }, { label: 'iso-8859-5' }];
  if (base === 'el') return [{ label: 'iso-8859-7' }, { label: 'windows-1253' }];
  if (base === 'tr' || base === 'az') return [{ label: 'iso-8859-9' }, { label: 'windows-1254' }];
  if (base === 'he') return [{ label: 'windows-1255' }, { label: 'iso-8859-8-i' }];
  if (['ar', 'fa', 'ur', 'ug'].includes(base)) return [{ label: 'windows-1256' }, { label: 'iso-8859-6' }];
  if (base === 'th') return [{ label: 'tis-620' }, { label: 'windows-874' }];
  if (base === 'vi') return [{ label: 'windows-1258' }, { label: 'windows-1258' }];
  if (['et', 'lv', 'lt'].includes(base)) return [{ label: 'iso-8859-13' }, { label: 'windows-1257' }];
  if (base === 'ja') return [{ label: 'iso-2022-jp' }, { label: 'shift_jis' }];
  if (base === 'ko') return [{ label: 'euc-kr' }, { label: 'ks_c_5601-1987', encoder: 'euc-kr' }];
  if (base === 'zh') return /^zh-(tw|hk|hant|mo)/.test(t) ? [{ label: 'big5' }, { label: 'big5-hkscs', encoder: 'big5' }] : [{ label: 'gb2312', encoder: 'gbk' }, { label: 'gb18030' }];
  return undefined;
};

const letters = (s: string): number => (s.match(/\p{L}/gu) ?? []).length;

/** True when the charset holds the mail's subject and text (all but 1 % of their letters). */
const holds = (c: Case, charset: string): boolean => {
  const all = `${c.mail.subject ?? ''}\n${c.mail.text ?? ''}\n${c.mail.html ?? ''}`;
  return unencodable(all, charset) <= 0.01 * Math.max(1, letters(all));
};

const legacy = (name: string, which: 0 | 1, transfer: Encoding['transfer'], mode: 'B' | 'Q'): Variant => ({
  family: 'charsets',
  name,
  does: `bodies and subject in the language's ${which === 0 ? 'usual' : 'second'} legacy charset, ${transfer}, subject as ${mode} words`,
  apply: (c) => {
    const cs = legacyOf(c.lang)?.[which];
    if (cs === undefined || !holds(c, cs.encoder ?? cs.label)) return undefined;
    const spec = { charset: cs.label, encoder: cs.encoder ?? cs.label };
    return withMail(c, { encoding: { ...spec, transfer, subject: { ...spec, mode } } });
  },
});

export const CHARSETS: readonly Variant[] = [
  legacy('legacy, qp', 0, 'quoted-printable', 'B'),
  legacy('legacy, base64', 0, 'base64', 'B'),
  legacy('legacy, 8bit', 0, '8bit', 'Q'),
  legacy('second legacy, qp', 1, 'quoted-printable', 'Q'),
  {
    family: 'charsets',
    name: 'html in us-ascii',
    does: 'the HTML part in US-ASCII, every other character a numeric reference (&#NNNN;); the text part in UTF-8',
    apply: (c) => (c.mail.html === undefined ? undefined : withMail(c, { htmlEncoding: { charset: 'us-ascii', transfer: 'quoted-printable' } })),
  },
];
