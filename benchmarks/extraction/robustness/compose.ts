/**
 * A Mail back to RFC 5322 bytes, by hand so that each choice is the test's: the charset the bodies
 * are written in (and the alias its label uses), the transfer encoding, where quoted-printable
 * breaks its lines, the line ending, the subject's encoded words. Parts are what the mail holds:
 * text/plain, text/html (inside multipart/related with its images), or multipart/alternative of both.
 */
import type { Rng } from '../real/random.js';
import { hex } from '../real/random.js';
import { encodeIn, type Fallback } from './charsets.js';
import type { Encoding, Mail } from './mail.js';
import { encodeQuotedPrintable, occurrences } from './quoted-printable.js';

interface Part {
  readonly headers: readonly string[];
  readonly body: string;
}

const wrap = (s: string, width: number, eol: string): string => (s.match(new RegExp(`.{1,${width}}`, 'g')) ?? ['']).join(eol);

/** Soft-break offsets inside each occurrence of the encoding's `breakInside` strings. */
const breaksIn = (bytes: Buffer, enc: Encoding, charset: string, fallback: Fallback, rng: Rng): Set<number> => {
  const breaks = new Set<number>();
  for (const needle of enc.breakInside ?? []) {
    const n = encodeIn(needle, charset, fallback);
    if (n.length < 2) continue;
    for (const start of occurrences(bytes, n)) {
      if (enc.breakAt === 'after-equals') {
        for (let i = 0; i < n.length - 1; i += 1) if (n[i] === 0x3d) breaks.add(start + i + 1);
      } else breaks.add(start + rng.int(1, n.length - 1));
    }
  }
  return breaks;
};

const textPart = (content: string, subtype: 'plain' | 'html', enc: Encoding, rng: Rng): Part => {
  const eol = enc.eol ?? '\r\n';
  const charset = enc.encoder ?? enc.charset;
  const fallback: Fallback = subtype === 'html' ? 'html' : 'text';
  const normal = content.replace(/\r\n?/g, '\n');
  // The line break before a boundary belongs to the boundary, and parsers give it back as the
  // body's last newline: a body ending in one is written without it, so a re-encoding adds none.
  const lf = enc.transfer === 'base64' || !normal.endsWith('\n') ? normal : normal.slice(0, -1);
  const bytes = encodeIn(lf, charset, fallback);
  const longest = Math.max(...lf.split('\n').map((l) => Buffer.byteLength(l)));
  // 8bit allows no line over 998 octets: such a body goes quoted-printable, as a mailer would send it.
  const transfer = enc.transfer === '8bit' && longest > 900 ? 'quoted-printable' : enc.transfer;
  const body =
    transfer === 'base64'
      ? wrap(encodeIn(lf.replace(/\n/g, '\r\n'), charset, fallback).toString('base64'), 76, eol)
      : transfer === '8bit'
        ? bytes.toString('latin1').replace(/\n/g, eol)
        : encodeQuotedPrintable(bytes, { lineLength: enc.lineLength ?? 76, breaks: breaksIn(bytes, enc, charset, fallback, rng), eol });
  return { headers: [`Content-Type: text/${subtype}; charset="${enc.charset}"`, `Content-Transfer-Encoding: ${transfer}`], body };
};

const multipart = (subtype: string, parts: readonly Part[], rng: Rng, eol: string): Part => {
  const boundary = `=_${hex(rng, 24)}`;
  const body = [...parts.map((p) => `--${boundary}${eol}${p.headers.join(eol)}${eol}${eol}${p.body}${eol}`), `--${boundary}--${eol}`].join('');
  return { headers: [`Content-Type: multipart/${subtype};${eol} boundary="${boundary}"`], body };
};

const htmlPart = (mail: Mail, html: string, rng: Rng, eol: string): Part => {
  const part = textPart(html, 'html', mail.htmlEncoding ?? mail.encoding, rng);
  if (mail.images.length === 0) return part;
  const images = mail.images.map((img) => ({
    headers: [`Content-Type: image/png; name="${img.filename}"`, 'Content-Transfer-Encoding: base64', `Content-ID: <${img.cid}>`, `Content-Disposition: inline; filename="${img.filename}"`],
    body: wrap(img.bytes.toString('base64'), 76, eol),
  }));
  return multipart('related', [part, ...images], rng, eol);
};

const qEncode = (bytes: Buffer): string =>
  [...bytes].map((b) => (b === 0x20 ? '_' : /[A-Za-z0-9!*+\-/]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

const foldPlain = (value: string, eol: string): string => {
  const lines: string[] = [];
  let line = '';
  for (const word of value.split(' ')) {
    if (line !== '' && line.length + word.length + 1 > 70) {
      lines.push(line);
      line = word;
    } else line = line === '' && lines.length === 0 ? word : `${line} ${word}`;
  }
  return [...lines, line].join(`${eol} `);
};

/**
 * A header value as RFC 2047 encoded words (each at most 75 characters, split between characters),
 * or folded plain text when it is printable ASCII.
 */
export const encodeHeader = (value: string, spec: NonNullable<Encoding['subject']> = { charset: 'utf-8', mode: 'B' }, eol = '\r\n'): string => {
  if (/^[\x20-\x7e]*$/.test(value) && !value.includes('=?')) return foldPlain(value, eol);
  const charset = spec.encoder ?? spec.charset;
  const word = (s: string): string => {
    const bytes = encodeIn(s, charset, 'text');
    return `=?${spec.charset}?${spec.mode}?${spec.mode === 'B' ? bytes.toString('base64') : qEncode(bytes)}?=`;
  };
  const words: string[] = [];
  let chunk = '';
  for (const ch of value) {
    if (chunk !== '' && word(chunk + ch).length > 75) {
      words.push(word(chunk));
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk !== '') words.push(word(chunk));
  return words.join(`${eol} `);
};

/** The mail as bytes: its headers, the subject, MIME-Version and its parts. */
export const composeMail = (mail: Mail, rng: Rng): Buffer => {
  const eol = mail.encoding.eol ?? '\r\n';
  const parts = [
    ...(mail.text === undefined ? [] : [textPart(mail.text, 'plain', mail.encoding, rng)]),
    ...(mail.html === undefined ? [] : [htmlPart(mail, mail.html, rng, eol)]),
  ];
  const root = parts.length === 1 && parts[0] !== undefined ? parts[0] : multipart('alternative', parts.length === 0 ? [textPart('', 'plain', mail.encoding, rng)] : parts, rng, eol);
  const headers = [
    ...mail.headers.map((h) => h.replace(/\r?\n/g, eol)),
    ...(mail.subject === undefined ? [] : [`Subject: ${encodeHeader(mail.subject, mail.encoding.subject, eol)}`]),
    'MIME-Version: 1.0',
    ...root.headers,
  ];
  return Buffer.from(`${headers.join(eol)}${eol}${eol}${root.body}`, 'latin1');
};
