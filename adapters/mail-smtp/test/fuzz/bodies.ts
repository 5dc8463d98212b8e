/** Builders of hostile message bodies, deterministic from a seed so a failure can be replayed. */

export type MessageKind =
  | 'random' | 'deep-mime' | 'many-parts' | 'huge-header' | 'many-headers'
  | 'broken-encoding' | 'bare-lf' | 'nul' | 'dots' | 'oversized';

/** mulberry32: tiny, seeded, good enough to pick bytes. */
export const prng = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
};

// Weighted towards the bytes that break parsers: line endings, dots, NUL, 8-bit.
const HOSTILE = Buffer.from('\r\n\n\r..\0\0\x7f\xff\xfe\x80=?-:;"<>\t abcXYZ019', 'latin1');

const randomBytes = (next: () => number, length: number, alphabet = HOSTILE): Buffer => {
  const out = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) out[i] = alphabet[Math.floor(next() * alphabet.length)]!;
  return out;
};

const deepMime = (next: () => number, depth: number): string => {
  const open = Array.from({ length: depth }, (_, i) => `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`).join('');
  const close = next() < 0.3 ? '' : Array.from({ length: depth }, (_, i) => `\r\n--b${depth - 1 - i}--`).join('');
  return `MIME-Version: 1.0\r\n${open}Content-Type: text/plain\r\n\r\ninnermost${close}`;
};

const manyParts = (next: () => number, parts: number): string => {
  const part = (i: number): string => `--p\r\nContent-Type: ${next() < 0.5 ? 'text/plain' : 'application/octet-stream'}\r\n\r\npart ${i}\r\n`;
  return `MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="p"\r\n\r\n${Array.from({ length: parts }, (_, i) => part(i)).join('')}--p--`;
};

const hugeHeader = (next: () => number, length: number): string => {
  const value = 'v'.repeat(length);
  // Folded headers are legal at any length; unfolded ones run into the line limit.
  const folded = next() < 0.5 ? value.replace(/(.{900})/g, '$1\r\n\t') : value;
  return `Subject: ${folded}\r\nReferences: ${'<a@b> '.repeat(Math.floor(length / 60))}\r\n\r\nbody`;
};

const manyHeaders = (count: number): string =>
  `${Array.from({ length: count }, (_, i) => `X-Header-${i}: value ${i}`).join('\r\n')}\r\n\r\nbody`;

const brokenEncodings = (next: () => number): string => {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return [
    `Subject: ${pick(['=?utf-8?B?####?=', '=?bogus-charset?Q?=FF=FE?=', '=?utf-8?Q?unterminated', '=?=?=?'])}`,
    `From: ${pick(['"unclosed <a@b', '<<<>>>', '@@@', '=?utf-8?B?AAAA?= <x@y>'])}`,
    'MIME-Version: 1.0',
    `Content-Type: text/plain; charset="${pick(['x-unknown', 'utf-7', '', 'utf-8"; broken'])}"`,
    `Content-Transfer-Encoding: ${pick(['base64', 'quoted-printable', 'x-uuencode', 'chunky'])}`,
    '',
    pick(['!!!!not base64 at all!!!!', 'SGVsbG8=garbage==more', '=ZZ=\r=0=4', '=\r\n=\r\n=', 'begin 644 x\r\nM\r\nend']),
  ].join('\r\n');
};

/** The body of a message case, always headed by its id so the ingress can tell cases apart. */
export const buildBody = (id: number, kind: MessageKind, seed: number, size: number): Buffer => {
  const next = prng(seed);
  const head = Buffer.from(`X-Fuzz-Id: ${id}\r\n`);
  const text = (value: string): Buffer => Buffer.concat([head, Buffer.from(value, 'latin1')]);
  switch (kind) {
    case 'random': return Buffer.concat([head, randomBytes(next, size % 6_000)]);
    case 'deep-mime': return text(deepMime(next, 10 + (size % 800)));
    case 'many-parts': return text(manyParts(next, 50 + (size % 3_000)));
    case 'huge-header': return text(hugeHeader(next, 1_000 + (size % 60_000)));
    case 'many-headers': return text(manyHeaders(100 + (size % 4_000)));
    case 'broken-encoding': return text(brokenEncodings(next));
    case 'bare-lf': return text(`Subject: bare\n\n${'line\n'.repeat(size % 500)}.\n..\nend`);
    case 'nul': return Buffer.concat([head, Buffer.from('Subj\0ect: n\0l\r\n\r\n'), randomBytes(next, size % 3_000, Buffer.from('\0\0\0a\r\n'))]);
    case 'dots': return text(`Subject: dots\r\n\r\n.\r\n..\r\n.\r\nMAIL FROM:<smuggled@x>\r\n.${'\r\n.'.repeat(size % 200)}`);
    case 'oversized': return Buffer.concat([head, Buffer.alloc(size, 'x'.repeat(99) + '\r\n')]);
  }
};

/**
 * RFC 5321 transparency: a dot starting a line is doubled. Lines here end at any LF, bare or
 * not, because smtp-server unstuffs after a bare LF too; every body starts with its id header,
 * so the one place it does not (a bare LF as the very first byte) never occurs.
 */
export const dotStuff = (body: Buffer): Buffer => {
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === 0x2e && (i === 0 || body[i - 1] === 0x0a)) {
      parts.push(body.subarray(from, i), Buffer.from('.'));
      from = i;
    }
  }
  parts.push(body.subarray(from));
  return Buffer.concat(parts);
};

/** Longest line in bytes without its line ending (CRLF or bare LF). */
export const longestLine = (data: Buffer): number => {
  let longest = 0;
  let start = 0;
  for (let lf = data.indexOf(0x0a); lf !== -1; lf = data.indexOf(0x0a, start)) {
    longest = Math.max(longest, lf - start - (lf > start && data[lf - 1] === 0x0d ? 1 : 0));
    start = lf + 1;
  }
  return Math.max(longest, data.length - start);
};
