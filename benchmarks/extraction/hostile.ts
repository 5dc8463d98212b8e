/** Hostile messages for the parser comparison, built in memory (nothing is written to disk). */
export interface Hostile {
  readonly name: string;
  readonly raw: Buffer;
}

const head = (ct: string): string => `From: a@example.com\r\nTo: b@example.com\r\nSubject: test\r\nMIME-Version: 1.0\r\nContent-Type: ${ct}\r\n\r\n`;

const deepNesting = (depth: number): Buffer => {
  let body = 'Content-Type: text/plain\r\n\r\nYour code is 123456\r\n';
  for (let i = depth; i > 0; i -= 1) body = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${body}\r\n--b${i}--\r\n`;
  return Buffer.from(`From: a@example.com\r\nSubject: deep\r\nMIME-Version: 1.0\r\n${body}`);
};

const manyParts = (n: number): Buffer => {
  const parts = Array.from({ length: n }, (_, i) => `--x\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`).join('');
  return Buffer.from(`${head('multipart/mixed; boundary="x"')}${parts}--x--\r\n`);
};

const hugeHeaders = (bytes: number): Buffer => {
  const line = `X-Filler: ${'a'.repeat(990)}\r\n`;
  return Buffer.from(`${line.repeat(Math.ceil(bytes / line.length))}${head('text/plain')}hello\r\n`);
};

const brokenEncodings = (): Buffer =>
  Buffer.concat([
    Buffer.from(`${head('multipart/alternative; boundary="z"')}--z\r\nContent-Type: text/plain; charset="x-unknown-charset"\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not*base64***\r\n`),
    Buffer.from('--z\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p>=ZZ=\r\n=E2=82 broken =C3</p>\r\n'),
    Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x0d, 0x0a]),
    Buffer.from('--z--\r\n'),
  ]);

const hugeBody = (bytes: number): Buffer => Buffer.from(`${head('text/html; charset=utf-8')}${'<div><a href="x">'.repeat(Math.ceil(bytes / 17))}\r\n`);

/** The hostile set: deep nesting, 10k parts, huge headers, broken encodings, 1 MB of unclosed tags. */
export const hostileMessages = (): Hostile[] => [
  { name: 'deep nesting (500 levels)', raw: deepNesting(500) },
  { name: '10,000 parts', raw: manyParts(10_000) },
  { name: 'huge headers (4 MB)', raw: hugeHeaders(4 * 1024 * 1024) },
  { name: 'broken encodings', raw: brokenEncodings() },
  { name: 'unclosed tags (1 MB html)', raw: hugeBody(1024 * 1024) },
];
