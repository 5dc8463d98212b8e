import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { SCOPES } from '@ephemail/core';
import type { RunningHost } from '@ephemail/host-api';

// What the secret-views tests share: a fixed table of mails, one per code shape and way the HTML
// spells or splits the code; the oracle that says whether a served text still shows a code in any
// spelling; and the delivery of the table over SMTP, each mail to its own identity, with the
// extraction a revealing key reads (so a test skips, visibly, a mail whose code was not extracted).

/** One mail of the table: the code the engine extracts, and how the mail shows it. */
export interface SecretMail {
  readonly name: string;
  readonly code: string;
  readonly subject: string;
  readonly text?: string;
  readonly html?: string;
  readonly fromName?: string;
  readonly toName?: string;
  readonly attachment?: string;
  /** The HTML cannot be masked in place: it is withheld whole (`html_withheld`). */
  readonly withheld?: boolean;
}

// Filler words hold no digit, so a code's digits in a view came from the code.
const SAYS = 'Your verification code is';
export const MAILS: readonly SecretMail[] = [
  { name: 'digits in table cells (HTML only)', code: '482913', subject: 'Your verification code', html: `<p>${SAYS}</p><table><tr><td>4</td><td>8</td><td>2</td><td>9</td><td>1</td><td>3</td></tr></table>` },
  { name: 'digits in bold runs', code: '730615', subject: 'Sign in to Acme', text: `${SAYS} 730615.`, html: `<p>${SAYS} <b>730</b><b>615</b>.</p>` },
  { name: 'digits as decimal references (HTML only), in a title too', code: '591846', subject: 'Your code', html: `<p title="Code &#53;91846">${SAYS} &#53;&#57;&#49;&#56;&#52;&#54;.</p>` },
  { name: 'digits as hex references', code: '264079', subject: 'Confirm your sign-in', text: `${SAYS} 264079.`, html: `<p>${SAYS} &#x32;&#x36;&#X34;&#x30;&#x37;&#x39;.</p>` },
  { name: 'digits spaced, a no-break space in the HTML', code: '358127', subject: 'Your login code', text: `${SAYS} 358 127.`, html: `<p>${SAYS} 358&nbsp;127.</p>` },
  { name: 'digits in spans', code: '617402', subject: 'Your one-time code', text: `${SAYS} 617402.`, html: `<p>${SAYS} <span class="d">6</span><span style="font-weight:bold">17</span><span>4</span><span>02</span>.</p>` },
  { name: 'digits split by a comment', code: '905318', subject: 'Sign-in code', text: `${SAYS} 905318.`, html: `<p>${SAYS} 905<!-- split -->318.</p>` },
  { name: 'digits split by invisible characters', code: '246813', subject: 'Your access code', text: `${SAYS} 246813.`, html: `<p>${SAYS} 2&#8203;4&shy;6&zwnj;8&#x2060;1&#173;3.</p>` },
  { name: 'digits split by HTML5 named invisible characters (HTML only)', code: '395742', subject: 'Your security code', html: `<p>${SAYS} 395742.</p><p>If it does not paste, type 395&ZeroWidthSpace;742 or 39&NoBreak;5742.</p>` },
  { name: 'digits dashed, a no-break hyphen in the HTML', code: '846271', subject: 'Sign in with this code', text: `${SAYS} 846-271.`, html: `<p>${SAYS} <strong>846&#8209;271</strong>.</p>` },
  { name: 'digits grouped by dots in the HTML', code: '519734', subject: 'Your passcode', text: `${SAYS} 519 734.`, html: `<p>${SAYS} 519.734, or 519&middot;734.</p>` },
  { name: 'a dashed letters-and-digits code in subject, text and HTML', code: 'QX7K-92MD', subject: 'Your sign-in code is QX7K-92MD', text: 'Your sign-in code is QX7K-92MD.', html: '<p>Your sign-in code is <b>QX7K-92MD</b>.</p>' },
  { name: 'a grouped backup code in cells', code: 'K7Q2-M9X4-P3L8-W6Z1', subject: 'Your backup code', text: 'Your backup code is K7Q2-M9X4-P3L8-W6Z1.', html: '<p>Your backup code is</p><table><tr><td>K7Q2</td><td>M9X4</td><td>P3L8</td><td>W6Z1</td></tr></table>' },
  { name: 'letters and digits split in spans', code: 'H7TQ2Z', subject: 'H7TQ2Z is your code', text: `${SAYS} H7TQ2Z.`, html: `<p>${SAYS} <span>H7T</span><span>Q2Z</span>.</p>` },
  { name: 'a hex code to send back, upper-cased in the HTML', code: '3f9a0c7e5b12d846', subject: 'Confirm your address', text: 'To confirm your address, reply with this line:\nconfirm 3f9a0c7e5b12d846', html: '<p>To confirm your address, reply with this line:</p><p>confirm <code>3F9A0C7E</code>&#8203;<code>5B12D846</code></p>' },
  { name: 'digits as a bare word inside a tag (HTML only, withheld)', code: '718264', subject: 'Your code inside', html: `<p>${SAYS} 718264.</p><p 718264>Thanks.</p>`, withheld: true },
  { name: 'a code in the From name, a To name and an attachment name', code: '604738', subject: 'Welcome, here is your code', text: `${SAYS} 604738.`, html: `<p>${SAYS} <i>604</i><i>738</i>.</p>`, fromName: 'Code 604738', toName: 'Code 604738', attachment: 'code-604738.pdf' },
];

/** Every scope but `secrets:read`: the reader the issue is about. */
export const READER_SCOPES = SCOPES.filter((scope) => scope !== 'secrets:read');
/** Every scope. */
export const REVEALER_SCOPES = [...SCOPES];

/** The letters and digits of a code, lower-cased: what no spelling may show. */
export const coreOf = (code: string): string => code.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', shy: '\u00ad', middot: '\u00b7', zwnj: '\u200c', zwj: '\u200d',
  ndash: '\u2013', mdash: '\u2014', thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003', hairsp: '\u200a', zerowidthspace: '\u200b', nobreak: '\u2060',
};

/** The text a reader sees of a served string: tags (and comments) gone, references decoded once. */
export const readerText = (served: string): string =>
  served
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<\/?[A-Za-z!?][^>]*>?/g, '')
    .replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (_whole, ref: string) => {
      if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? '';
      const point = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : '';
    });

/**
 * True when `served` shows `code` in any spelling: tags stripped, references decoded, every
 * character that is not a letter or digit removed, lower-cased, and the code's letters and
 * digits looked for.
 */
export const holdsSecret = (served: string, code: string): boolean =>
  readerText(served).replace(/[^\p{L}\p{N}]/gu, '').toLowerCase().includes(coreOf(code));

/** A served text shown to hold a code: which view, where in it, and the text. */
export interface Leak {
  readonly view: string;
  readonly mail: string;
  readonly at: string;
  readonly text: string;
}

// A timestamp's digits could join into a code's by chance; no code is served as one.
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

/**
 * The leaks of the mails' codes in a view. A JSON answer is read leaf by leaf (each string a
 * reader is shown), so digits of neighbouring fields (a size, a count) never join into a false
 * hit; a string that is not HTML is read line by line.
 */
export const leaksIn = (view: string, served: unknown, mails: readonly SecretMail[] = MAILS): Leak[] => {
  const leaks: Leak[] = [];
  const visit = (value: unknown, at: string): void => {
    if (typeof value === 'string') {
      const parsed = parseJson(value);
      if (parsed !== undefined && typeof parsed === 'object') return visit(parsed, `${at}(json)`);
      const lines = /<[a-z!/]/i.test(value) ? [value] : value.split('\n');
      for (const line of lines) {
        const read = line.replace(TIMESTAMP, ' ');
        for (const mail of mails) if (holdsSecret(read, mail.code)) leaks.push({ view, mail: mail.name, at: at || '(text)', text: line.replaceAll('\n', ' ⏎ ').slice(0, 400) });
      }
    } else if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${at}[${i}]`));
    else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) visit(item, `${at}.${key}`);
  };
  visit(served, '');
  return leaks;
};

/** The leaks, one a line, as a failed assertion says them: view | mail | where: text. */
export const describeLeaks = (leaks: readonly Leak[]): string => leaks.map((l) => `${l.view} | ${l.mail} | ${l.at}: ${l.text}`).join('\n');

const parseJson = (text: string): unknown => {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The rows of an RFC 4180 text (for the CSV exports). */
export const csvRows = (text: string): string[][] =>
  text.split(/\r\n(?=(?:[^"]*"[^"]*")*[^"]*$)/).filter((line) => line !== '').map((line) =>
    [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => (m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replaceAll('""', '"') : m[1]!)),
  );

/** Sends one mail of the table to `to` through the host's MX over SMTP. */
export const sendSecretMail = async (host: RunningHost, to: string, mail: SecretMail): Promise<void> => {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort!, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({
      from: { name: mail.fromName ?? 'Acme', address: 'no-reply@acme.example.com' },
      to: mail.toName === undefined ? to : { name: mail.toName, address: to },
      subject: mail.subject,
      messageId: `<${randomUUID()}@acme.example.com>`,
      ...(mail.text === undefined ? {} : { text: mail.text }),
      ...(mail.html === undefined ? {} : { html: mail.html }),
      ...(mail.attachment === undefined ? {} : { attachments: [{ filename: mail.attachment, content: 'Terms of service.', contentType: 'application/pdf' }] }),
    });
  } finally {
    transport.close();
  }
};

/** A tenant's project on a host, and a request as one of its keys. */
export interface Tenant {
  readonly url: string;
  readonly org: string;
  readonly project: string;
}

export const request = async (tenant: Tenant, key: string, method: string, path: string, body?: unknown) => {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'x-org-id': tenant.org, 'x-project-id': tenant.project };
  if (method !== 'GET') Object.assign(headers, { 'idempotency-key': randomUUID(), 'content-type': 'application/json' });
  const res = await fetch(`${tenant.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: parseJson(text) as any };
};

/** A mail of the table as delivered: its identity, its message, and whether its code was extracted. */
export interface Delivered {
  readonly mail: SecretMail;
  readonly identity: { readonly id: string; readonly email: string };
  readonly messageId: string;
  /** The revealed extraction's values (winner and candidates). */
  readonly extracted: readonly string[];
  readonly found: boolean;
}

/**
 * Delivers every mail of the table to a new identity of `tenant` and waits, as `revealer`
 * (`secrets:read`, `reveal=true`), for its extraction.
 */
export const deliverTable = async (host: RunningHost, tenant: Tenant, revealer: string, mails: readonly SecretMail[] = MAILS): Promise<Delivered[]> =>
  Promise.all(
    mails.map(async (mail) => {
      const identity = (await request(tenant, revealer, 'POST', '/v1/identities', { label: mail.name })).json;
      await sendSecretMail(host, identity.email, mail);
      const extraction = (await request(tenant, revealer, 'GET', `/v1/identities/${identity.id}/extractions/latest?wait=30&reveal=true`)).json;
      const extracted = [extraction?.value, ...(extraction?.candidates ?? []).map((c: { value?: string }) => c.value)].filter((v): v is string => typeof v === 'string');
      const list = (await request(tenant, revealer, 'GET', `/v1/identities/${identity.id}/messages`)).json;
      return { mail, identity, messageId: list.items[0].id as string, extracted, found: extracted.some((v) => coreOf(v) === coreOf(mail.code)) };
    }),
  );

/** The delivered mails whose code was extracted; the others are logged as skipped. */
export const extractedOnly = (delivered: readonly Delivered[], log: (line: string) => void): Delivered[] => {
  for (const d of delivered.filter((one) => !one.found)) log(`skipped: "${d.mail.name}": the engine did not extract ${d.mail.code} (it saw ${JSON.stringify(d.extracted)})`);
  return delivered.filter((one) => one.found);
};

/** Polls `read` until `done` holds or `ms` pass; answers the last value read. */
export const until = async <A>(read: () => Promise<A>, done: (value: A) => boolean, ms = 30_000): Promise<A> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
};
