/**
 * The decoded form a transformation works on: a mail's headers as received, its subject, text and
 * HTML bodies and how they are to be encoded, with what its answer should be. `compose.ts` turns
 * it back into RFC 5322 bytes.
 */
import { decodeEntities, type ParsedMessage } from '@ephemail/core';
import type { Sample } from '../corpus.js';

/** A secret of the mail: a code as printed or a link as clicked. */
export interface Secret {
  readonly kind: 'otp' | 'magic_link';
  readonly value: string;
}

/** What the engine's answer to a (transformed) mail should be. */
export interface Expect {
  /** The secret the reader is asked to use first; undefined for mail that holds none. */
  readonly secret: Secret | undefined;
  /** Other spellings that are the same answer (a spaced code compacted, a tracked link's destination). */
  readonly alternatives: readonly string[];
  /** The label's further secrets (its `also`): removed too when a positive is turned negative. */
  readonly also: readonly Secret[];
  readonly linkPurpose: string | null;
}

/** How the bodies and the subject are written. */
export interface Encoding {
  /** The charset written in Content-Type. */
  readonly charset: string;
  /** The charset the bytes are encoded in, when the label written is an alias of it. */
  readonly encoder?: string;
  readonly transfer: 'quoted-printable' | 'base64' | '8bit';
  /** Charset and mode of the subject's encoded words (UTF-8, B by default). */
  readonly subject?: { readonly charset: string; readonly encoder?: string; readonly mode: 'B' | 'Q' };
  /** Quoted-printable line length, `=` included (76 by default). */
  readonly lineLength?: number;
  /** Quoted-printable: a soft line break inside every occurrence of these strings. */
  readonly breakInside?: readonly string[];
  /** Where the break falls in an occurrence: one random place, or after each `=`. */
  readonly breakAt?: 'random' | 'after-equals';
  readonly eol?: '\r\n' | '\n';
}

/** An image sent inside the mail (multipart/related), referred to by `cid:` from the HTML. */
export interface InlineImage {
  readonly cid: string;
  readonly filename: string;
  readonly bytes: Buffer;
}

export interface Mail {
  /** Header lines other than Subject and the MIME ones, as received (a folded header is one string). */
  readonly headers: readonly string[];
  /** Undefined: the mail has no Subject header. */
  readonly subject: string | undefined;
  readonly text: string | undefined;
  readonly html: string | undefined;
  readonly images: readonly InlineImage[];
  readonly encoding: Encoding;
  /** The HTML part's own encoding, when it differs from the text part's. */
  readonly htmlEncoding?: Encoding;
}

/** The sender's site, for links and names a transformation adds. */
export interface Site {
  readonly host: string;
  readonly name: string;
}

/** One mail with its expected answer: what a transformation takes and gives. */
export interface Case {
  readonly file: string;
  readonly lang: string;
  readonly site: Site;
  readonly mail: Mail;
  readonly expect: Expect;
  /** Values a transformation took out (an old link, a removed secret): the result must no longer show them. */
  readonly gone?: readonly string[];
}

export const UTF8_QP: Encoding = { charset: 'utf-8', transfer: 'quoted-printable' };

const DROPPED_HEADERS = new Set(['subject', 'mime-version', 'content-type', 'content-transfer-encoding', 'content-disposition', 'content-id']);

/** The header lines of raw bytes (read as latin1, so 8-bit bytes survive), folded ones joined. */
export const headerLines = (raw: Buffer): string[] => {
  const text = raw.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const lines = (end < 0 ? text : text.slice(0, end)).split(/\r?\n/);
  const out: string[] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && out.length > 0) out[out.length - 1] += `\r\n${line}`;
    else if (line !== '') out.push(line);
  }
  return out.filter((h) => !DROPPED_HEADERS.has(h.slice(0, h.indexOf(':')).trim().toLowerCase()));
};

const siteOf = (message: ParsedMessage): Site => {
  const domain = message.from.address.split('@')[1]?.toLowerCase() ?? 'example.com';
  const host = domain.replace(/^(?:mail|mailer|email|e|bounce|notifications?|no-?reply)\./, '');
  return { host, name: message.from.name.trim() || host.split('.')[0] || host };
};

/** The label of a sample as an expectation. */
export const expectOf = (sample: Sample): Expect => {
  const { kind, value, link_purpose: linkPurpose } = sample.label;
  const also = (sample.label.also ?? []).filter((a) => a.kind === 'otp' || a.kind === 'magic_link').map((a) => ({ kind: a.kind as Secret['kind'], value: a.value }));
  return { secret: kind === 'none' || value === null ? undefined : { kind, value }, alternatives: [], also, linkPurpose };
};

/** A parsed sample as a case: its headers, bodies and label, to be re-encoded as UTF-8 quoted-printable. */
export const caseOf = (sample: Sample, message: ParsedMessage): Case => ({
  file: sample.label.file,
  lang: sample.label.lang,
  site: siteOf(message),
  mail: {
    headers: headerLines(sample.raw),
    subject: message.headers.subject === undefined ? undefined : message.subject,
    text: message.text === '' ? undefined : message.text,
    html: message.html === '' ? undefined : message.html,
    images: [],
    encoding: UTF8_QP,
  },
  expect: expectOf(sample),
});

/** A case with some of its mail replaced. */
export const withMail = (c: Case, mail: Partial<Mail>): Case => ({ ...c, mail: { ...c.mail, ...mail } });

/** A case with some of its expectation replaced. */
export const withExpect = (c: Case, expect: Partial<Expect>): Case => ({ ...c, expect: { ...c.expect, ...expect } });

/** Every secret the label names: the first and the `also` ones. */
export const secretsOf = (e: Expect): Secret[] => [...(e.secret === undefined ? [] : [e.secret]), ...e.also];

/** The text a reader or a parser could find a value in: subject, text, HTML with entities decoded. */
export const haystack = (m: Pick<ParsedMessage, 'subject' | 'text' | 'html'>): string => `${m.subject}\n${m.text}\n${decodeEntities(m.html)}`;

/** The same with tags and all white space removed, so a value split over cells or lines is found. */
export const compactHaystack = (m: Pick<ParsedMessage, 'subject' | 'text' | 'html'>): string =>
  `${m.subject}${m.text}${decodeEntities(m.html.replace(/<[^>]*>/g, ''))}`.replace(/\s+/g, '');

/** True when the value (or, compacted, its letters) occurs in the parsed mail. */
export const shows = (m: Pick<ParsedMessage, 'subject' | 'text' | 'html'>, value: string): boolean =>
  haystack(m).includes(value) || compactHaystack(m).includes(value.replace(/\s+/g, ''));
