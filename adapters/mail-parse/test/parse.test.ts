import test from 'ava';
import { extract } from '@ephemail/core';
import { createPostalMimeMailParser } from '../src/index.js';

// A time budget no parse here comes near on a busy machine; the budget has a test of its own below.
const parser = createPostalMimeMailParser({ timeBudgetMs: 60_000 });

const crlf = (lines: string[]): Buffer => Buffer.from(lines.join('\r\n'));

const parseOk = async (raw: Buffer) => {
  const outcome = await parser.parse(raw);
  if (!outcome.ok) throw new Error(`parse failed: ${outcome.error._tag}`);
  return outcome.message;
};

test('mail-parse: quoted-printable text and a base64 HTML part are decoded, with links', async (t) => {
  const html = Buffer.from('<p>Bonjour,</p><a href="https://app.example.com/v?token=A1b2C3d4E5f6G7h8&amp;x=1">Confirmer</a>').toString('base64');
  const m = await parseOk(
    crlf([
      'From: "Équipe" <no-reply@app.example.com>', 'To: a@inbox.test', 'Subject: =?UTF-8?B?Q29uZmlybWV6IHZvdHJlIGFkcmVzc2U=?=', 'MIME-Version: 1.0',
      'Content-Type: multipart/alternative; boundary="b"', '', '--b', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '',
      'Votre code : 48=', '2913 =C3=A9t=C3=A9', '--b', 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: base64', '', html, '--b--', '',
    ]),
  );
  t.is(m.subject, 'Confirmez votre adresse');
  t.is(m.from.name, 'Équipe');
  t.true(m.text.includes('Votre code : 482913 été'));
  t.deepEqual(m.links, [{ href: 'https://app.example.com/v?token=A1b2C3d4E5f6G7h8&x=1', text: 'Confirmer' }]);
  t.true((m.htmlText ?? '').includes('Bonjour'));
});

test('mail-parse: legacy charsets (ISO-8859-1, windows-1251, Shift_JIS) become UTF-8', async (t) => {
  const latin1 = Buffer.concat([Buffer.from('Subject: x\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n'), Buffer.from([0x43, 0x6f, 0x64, 0x65, 0x20, 0xe9])]);
  t.is((await parseOk(latin1)).text.trim(), 'Code é');
  const cp1251 = Buffer.concat([Buffer.from('Subject: x\r\nContent-Type: text/plain; charset=windows-1251\r\n\r\n'), Buffer.from([0xea, 0xee, 0xe4])]);
  t.is((await parseOk(cp1251)).text.trim(), 'код');
  const sjis = Buffer.concat([Buffer.from('Subject: =?Shift_JIS?B?g1KBW4No?=\r\nContent-Type: text/plain; charset=Shift_JIS\r\n\r\n'), Buffer.from([0x83, 0x52, 0x81, 0x5b, 0x83, 0x68])]);
  const m = await parseOk(sjis);
  t.is(m.subject, 'コード');
  t.is(m.text.trim(), 'コード');
});

test('mail-parse: an HTML-only message has no invented text part, and a text-only one no HTML', async (t) => {
  const htmlOnly = await parseOk(crlf(['Subject: h', 'Content-Type: text/html; charset=utf-8', '', '<p>Hi</p>']));
  t.is(htmlOnly.text, '');
  t.is(htmlOnly.htmlText, 'Hi');
  const textOnly = await parseOk(crlf(['Subject: t', '', 'plain body']));
  t.is(textOnly.html, '');
  t.is(textOnly.text.trim(), 'plain body');
});

test('mail-parse: headers are kept lowercased with every value, attachments as metadata only', async (t) => {
  const m = await parseOk(
    crlf([
      'Received: one', 'Received: two', 'Subject: a', 'Content-Type: multipart/mixed; boundary="m"', '', '--m', 'Content-Type: text/plain', '', 'hello', '--m',
      'Content-Type: application/pdf; name="r.pdf"', 'Content-Disposition: attachment; filename="r.pdf"', 'Content-Transfer-Encoding: base64', '', Buffer.from('%PDF-1.4').toString('base64'), '--m--', '',
    ]),
  );
  t.deepEqual(m.headers.received, ['one', 'two']);
  t.deepEqual(m.attachments, [{ filename: 'r.pdf', contentType: 'application/pdf', size: 8 }]);
});

test('mail-parse: a message over the size cap is refused before parsing', async (t) => {
  const small = createPostalMimeMailParser({ maxBytes: 1024 });
  const outcome = await small.parse(Buffer.alloc(2048, 'a'));
  t.false(outcome.ok);
  t.is(!outcome.ok ? outcome.error._tag : '', 'MessageTooLarge');
});

test('mail-parse: 10,000 parts are refused by the part cap', async (t) => {
  const parts = Array.from({ length: 10_000 }, (_, i) => `--x\r\nContent-Type: text/plain\r\n\r\np${i}\r\n`).join('');
  // Refused by the pre-parse count (its speed is measured in benchmarks/extraction/hostile.ts).
  const outcome = await parser.parse(Buffer.from(`Subject: many\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n${parts}--x--\r\n`));
  t.is(!outcome.ok ? outcome.error._tag : '', 'TooManyParts');
});

test('mail-parse: deep nesting and huge headers are refused, not crashed on', async (t) => {
  let body = 'Content-Type: text/plain\r\n\r\nx\r\n';
  for (let i = 40; i > 0; i -= 1) body = `Content-Type: multipart/mixed; boundary="n${i}"\r\n\r\n--n${i}\r\n${body}\r\n--n${i}--\r\n`;
  const deep = await createPostalMimeMailParser({ maxParts: 1000 }).parse(Buffer.from(`Subject: deep\r\n${body}`));
  t.false(deep.ok);
  const huge = await parser.parse(Buffer.from(`${`X-Pad: ${'a'.repeat(998)}\r\n`.repeat(400)}Subject: big\r\n\r\nhi\r\n`));
  t.is(!huge.ok ? huge.error._tag : '', 'MalformedMessage');
});

test('mail-parse: broken encodings still parse', async (t) => {
  const raw = crlf([
    'Subject: =?x-unknown?Q?abc?=', 'Content-Type: multipart/alternative; boundary="z"', '', '--z', 'Content-Type: text/plain; charset=x-unknown', 'Content-Transfer-Encoding: base64', '',
    '!!!not*base64***', '--z', 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '', '<p>code =ZZ 552019 =C3</p>', '--z--', '',
  ]);
  const outcome = await parser.parse(raw);
  t.true(outcome.ok);
});

test('mail-parse: the time budget turns a slow parse into a value', async (t) => {
  const strict = createPostalMimeMailParser({ timeBudgetMs: 0 });
  const outcome = await strict.parse(Buffer.from('Subject: s\r\n\r\nbody\r\n'));
  t.is(!outcome.ok ? outcome.error._tag : '', 'ParseBudgetExceeded');
});

test('mail-parse: garbage never throws', async (t) => {
  for (const raw of [Buffer.alloc(0), Buffer.from([0, 1, 2, 255, 254]), Buffer.from('\r\n\r\n--\r\n')]) {
    const outcome = await parser.parse(raw);
    t.is(typeof outcome.ok, 'boolean');
  }
});

test('mail-parse: parse then extract finds the code of a real-looking message', async (t) => {
  const m = await parseOk(crlf(['From: Acme <no-reply@acme.example.com>', 'Subject: Your Acme code', 'Content-Type: text/plain; charset=utf-8', '', 'Your verification code is:', '', '771904', '']));
  t.is(extract(m).top?.value, '771904');
});
