import test from 'ava';
import fc from 'fast-check';
import PostalMime from 'postal-mime';
import { createPostalMimeMailParser, installBodyDecoders, joinChunks, removeBodyDecoders } from '../src/index.js';

// The parser swaps postal-mime's pass-through body decoder for one buffer, and joins the chunks
// of its quoted-printable and base64 decoders without a Blob (ADR 0010). These tests pin what
// the swaps must keep doing: every pass-through body line comes back followed by one "\n",
// whatever line ending it had; decoded bodies and attachments come back byte for byte, however
// many chunks the library's decoders cut them into.

const parser = createPostalMimeMailParser({ timeBudgetMs: 20_000 });

/** Deterministic lines: ASCII, spaces, accented and CJK text, empty lines, long lines. */
const linesOf = (count: number, seed: number): string[] => {
  const pieces = ['', 'Your code is 482913', 'héllo wörld ', '認証コード', ' '.repeat(3), 'X'.repeat(78), 'a'.repeat(997), '--not-a-boundary'];
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state;
  };
  return Array.from({ length: count }, () => `${pieces[next() % pieces.length]}${next() % 10}`);
};

const headers = ['From: App <no-reply@app.example.com>', 'To: user@inbox.test', 'Subject: body', 'Message-ID: <plain@app.example.com>'];

/** Quoted-printable with soft breaks every 72 characters or fewer, never inside an escape. */
const qp = (text: string | Uint8Array): string => {
  const lines: string[] = [];
  let line = '';
  for (const byte of typeof text === 'string' ? Buffer.from(text, 'utf8') : text) {
    const token = byte === 0x3d || byte > 0x7e ? `=${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte);
    if (line.length + token.length > 72) {
      lines.push(`${line}=`);
      line = '';
    }
    line += token;
  }
  return [...lines, line].join('\r\n');
};

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64').replace(/.{76}/g, '$&\r\n');

const parseText = async (raw: string) => {
  const outcome = await parser.parse(Buffer.from(raw, 'utf8'));
  if (!outcome.ok) throw new Error(outcome.error._tag);
  return outcome.message;
};

test('mail-parse: every decoder swap is in place for the pinned postal-mime', (t) => {
  t.deepEqual(installBodyDecoders(), { plain: true, quotedPrintable: true, base64: true });
});

const chunk = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => bytes.buffer),
  fc.uint8Array({ maxLength: 300 }),
  // A view into a larger buffer, as a decoder's slice of its work buffer may be.
  fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), fc.nat()).map(([bytes, a, b]) => {
    const from = a % bytes.length;
    return bytes.subarray(from, from + (b % (bytes.length - from + 1)));
  }),
);

test('mail-parse: chunks are joined into the bytes a Blob of them holds', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(chunk, { maxLength: 6 }), async (chunks) => {
      const expected = Buffer.from(await new Blob(chunks).arrayBuffer());
      const joined = joinChunks(chunks);
      t.true(joined instanceof ArrayBuffer);
      return Buffer.from(joined).equals(expected);
    }),
    { numRuns: 300 },
  );
});

test('mail-parse: a 7bit or 8bit single-part body comes back line for line, whatever its line endings', async (t) => {
  for (const [seed, count] of [[1, 1], [2, 7], [3, 640], [4, 3000]] as const) {
    const lines = linesOf(count, seed);
    for (const [encoding, ending] of [['7bit', '\r\n'], ['8bit', '\n'], ['', '\r\n']] as const) {
      const head = [...headers, 'Content-Type: text/plain; charset=utf-8', ...(encoding === '' ? [] : [`Content-Transfer-Encoding: ${encoding}`])];
      const message = await parseText(`${head.join('\r\n')}\r\n\r\n${lines.join(ending)}${ending}`);
      t.is(message.text, lines.map((line) => `${line}\n`).join(''), `${count} lines, ${encoding || 'no encoding'}`);
    }
  }
});

test('mail-parse: multipart text and HTML parts pass through whole beside base64 and quoted-printable parts', async (t) => {
  const text = linesOf(200, 9);
  const html = ['<p>Use <b>739104</b> to sign in</p>', ...linesOf(50, 10).map((line) => `<div>${line}</div>`)];
  const raw = [
    ...headers,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: multipart/alternative; boundary="b2"',
    '',
    '--b2',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    ...text,
    '--b2',
    'Content-Type: text/html; charset=utf-8',
    '',
    ...html,
    '--b2--',
    '--b1',
    'Content-Type: application/octet-stream; name="a.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('binary\r\nbytes').toString('base64'),
    '--b1',
    'Content-Type: text/plain; name="note.txt"',
    'Content-Disposition: attachment; filename="note.txt"',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'caf=C3=A9 =3D ok',
    '--b1--',
    '',
  ].join('\r\n');
  const message = await parseText(raw);
  t.is(message.text, text.map((line) => `${line}\n`).join(''));
  t.is(message.html, html.map((line) => `${line}\n`).join(''));
  t.deepEqual(
    message.attachments.map((a) => [a.filename, a.size]),
    [['a.bin', 13], ['note.txt', Buffer.byteLength('café = ok\n')]],
  );
});

test('mail-parse: quoted-printable and base64 bodies and attachments decode byte for byte, in one chunk or many', async (t) => {
  // Base64 units padded mid-line make the library's decoder emit a chunk per unit; a
  // quoted-printable body over its 100 KiB work buffer makes it emit several chunks.
  const words = Array.from({ length: 3000 }, (_, i) => `line ${i}: héllo wörld, 認証コード ${(i * 7919) % 1_000_003}`).join(' ');
  const padded = ['Zm9v', 'YmE=', 'eg==', 'cXV4'].join('');
  const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
  const raw = [
    ...headers,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="m1"',
    '',
    '--m1',
    'Content-Type: multipart/alternative; boundary="m2"',
    '',
    '--m2',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    qp(words),
    '--m2',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    b64(Buffer.from(`<p>${words}</p>`, 'utf8')),
    '--m2--',
    '--m1',
    'Content-Type: application/octet-stream; name="padded.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    padded,
    '--m1',
    'Content-Type: application/octet-stream; name="big.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    b64(binary),
    '--m1--',
    '',
  ].join('\r\n');
  const message = await parseText(raw);
  // Compared with t.true: a failure report quoting two 400 KB bodies helps no one. Trailing line
  // breaks are the library's business (a decoded part ends with the line break before its boundary).
  t.true(message.text.trimEnd() === words, `text: ${message.text.length} chars for ${words.length}`);
  t.true(message.html.trimEnd() === `<p>${words}</p>`, `html: ${message.html.length} chars for ${words.length + 7}`);
  t.deepEqual(
    message.attachments.map((a) => [a.filename, a.size]),
    [['padded.bin', 9], ['big.bin', binary.length]],
  );
  // The adapter reports attachment sizes only; the bytes are checked on the library's own result.
  const email = await PostalMime.parse(Buffer.from(raw), { attachmentEncoding: 'arraybuffer' });
  t.deepEqual(
    email.attachments.map((a) => Buffer.from(a.content as ArrayBuffer)),
    [Buffer.from('foobazqux'), binary],
  );
});

/** postal-mime's whole result, with binary content spelled out, for comparing two parses. */
const resultOf = async (raw: string): Promise<string> =>
  JSON.stringify(await PostalMime.parse(Buffer.from(raw, 'latin1'), { attachmentEncoding: 'arraybuffer' }), (_, value: unknown) =>
    value instanceof ArrayBuffer ? Buffer.from(value).toString('hex') : value,
  );

const part = fc.record({
  type: fc.constantFrom('text/plain; charset=utf-8', 'text/html; charset=utf-8', 'text/plain; charset=iso-8859-1', 'application/octet-stream'),
  encoding: fc.constantFrom('7bit', '8bit', 'quoted-printable', 'base64', 'base64-padded-units', ''),
  attachment: fc.boolean(),
  body: fc.oneof(fc.string({ maxLength: 400 }).map((s) => Buffer.from(s, 'utf8')), fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b))),
});

/** A message of the generated parts, each body encoded as its part says (raw bytes as latin1). */
const messageOf = (parts: readonly { type: string; encoding: string; attachment: boolean; body: Buffer }[]): string => {
  const lines = [...headers, 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="g1"', ''];
  for (const [i, p] of parts.entries()) {
    const encoding = p.encoding === 'base64-padded-units' ? 'base64' : p.encoding;
    lines.push('--g1', `Content-Type: ${p.type}`);
    if (encoding !== '') lines.push(`Content-Transfer-Encoding: ${encoding}`);
    if (p.attachment) lines.push(`Content-Disposition: attachment; filename="part${i}.bin"`);
    lines.push('');
    if (p.encoding === 'quoted-printable') lines.push(qp(p.body));
    // Each group of up to three bytes as its own padded unit: a chunk per unit in the decoder.
    else if (p.encoding === 'base64-padded-units') lines.push(Array.from({ length: Math.ceil(p.body.length / 2) }, (_, k) => p.body.subarray(k * 2, k * 2 + 2).toString('base64')).join(''));
    else if (p.encoding === 'base64') lines.push(b64(p.body));
    // Bytes sent as they are: bare CR and LF split lines, as they would on the wire.
    else lines.push(p.body.toString('latin1'));
  }
  lines.push('--g1--', '');
  return lines.join('\r\n');
};

// Serial: it takes the swaps out and puts them back, and no other parse may run in between.
test.serial('mail-parse: with the swaps in place postal-mime answers exactly what the stock library answers', async (t) => {
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 4 }), async (parts) => {
        const raw = messageOf(parts);
        removeBodyDecoders();
        const stock = await resultOf(raw);
        t.deepEqual(installBodyDecoders(), { plain: true, quotedPrintable: true, base64: true });
        return (await resultOf(raw)) === stock;
      }),
      { numRuns: 300 },
    );
  } finally {
    installBodyDecoders();
  }
});
