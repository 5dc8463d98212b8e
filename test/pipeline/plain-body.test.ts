import test from 'ava';
import { createPostalMimeMailParser, installPlainBodyCollector } from '@ephemail/mail-parse';

// The parser swaps postal-mime's pass-through body decoder for one buffer (ADR 0010). These tests
// pin what that decoder must keep doing: every body line comes back followed by one "\n",
// whatever line ending it had, for single-part and multipart messages, and the other transfer
// encodings are left to the library.

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

const parseText = async (raw: string) => {
  const outcome = await parser.parse(Buffer.from(raw, 'utf8'));
  if (!outcome.ok) throw new Error(outcome.error._tag);
  return outcome.message;
};

test('mail-parse: the plain body collector is in place for the pinned postal-mime', (t) => {
  t.true(installPlainBodyCollector());
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
