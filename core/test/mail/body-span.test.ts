import test from 'ava';
import fc from 'fast-check';
import { bodyAt, findBodySpan, MIN_SPANNED_BODY } from '../../src/mail/body-span.js';

const HEAD = 'From: a@example.com\r\nTo: b@example.com\r\nSubject: Hi\r\n\r\n';
const LINES = Array.from({ length: 40 }, (_, n) => `line ${n} of the body, with some words to make it long enough`);
/** A body as a parser gives it (LF line ends) and the same as it travels (CRLF). */
const BODY = `${LINES.join('\n')}\n`;
const onWire = (body: string): string => body.replaceAll('\n', '\r\n');

test('body span: a plain body after the headers is found, and reads back exactly', (t) => {
  const raw = Buffer.from(HEAD + onWire(BODY));
  const span = findBodySpan(raw, BODY);
  t.deepEqual(span, { start: Buffer.byteLength(HEAD), end: raw.byteLength });
  t.is(bodyAt(raw, span!), BODY);
});

test('body span: offsets are bytes, so 8-bit UTF-8 before and inside the body is counted right', (t) => {
  const body = `Grüße, ${'ünïcödé 文字 🙂 '.repeat(120)}\nEnde\n`;
  const raw = Buffer.from(`${HEAD.replace('Hi', 'Größe')}${onWire(body)}`);
  const span = findBodySpan(raw, body);
  t.truthy(span);
  t.is(bodyAt(raw, span!), body);
});

test('body span: mail kept with bare LF line ends is found too', (t) => {
  const raw = Buffer.from(HEAD.replaceAll('\r\n', '\n') + BODY);
  const span = findBodySpan(raw, BODY);
  t.deepEqual(span, { start: raw.indexOf('line 0'), end: raw.byteLength });
  t.is(bodyAt(raw, span!), BODY);
});

test('body span: the text part of a multipart message is found among the parts', (t) => {
  const raw = Buffer.from(
    HEAD.replace('\r\n\r\n', '\r\nContent-Type: multipart/alternative; boundary="b"\r\n\r\n') +
      ['--b', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', onWire(BODY), '--b', 'Content-Type: text/html', '', '<p>hi</p>', '--b--', ''].join('\r\n'),
  );
  const span = findBodySpan(raw, BODY);
  t.truthy(span);
  t.is(bodyAt(raw, span!), BODY);
});

test('body span: a first line that also appears earlier (in a header) does not hide the body', (t) => {
  const raw = Buffer.from(HEAD.replace('Subject: Hi', `Subject: ${LINES[0]}`) + onWire(BODY));
  const span = findBodySpan(raw, BODY);
  t.is(span?.start, raw.byteLength - Buffer.byteLength(onWire(BODY)));
  t.is(bodyAt(raw, span!), BODY);
});

test('body span: a body decoded from a transfer encoding is not in the raw, and is kept as it is', (t) => {
  const qp = onWire(BODY).replaceAll(' ', '=20');
  t.is(findBodySpan(Buffer.from(HEAD + qp), BODY), undefined);
  const b64 = Buffer.from(BODY).toString('base64').replace(/.{76}/g, '$&\r\n');
  t.is(findBodySpan(Buffer.from(HEAD + b64), BODY), undefined);
});

test('body span: a body that differs from the raw anywhere, even by its last character, gets no span', (t) => {
  const raw = Buffer.from(HEAD + onWire(BODY));
  t.is(findBodySpan(raw, `${BODY.slice(0, -2)}X\n`), undefined);
  t.is(findBodySpan(raw, BODY.replace('line 20', 'line 2O')), undefined);
  t.is(findBodySpan(raw, `${BODY}more\n`), undefined);
});

test('body span: short bodies, bodies cut inside a surrogate pair and bodies starting with a blank line are kept as they are', (t) => {
  const short = 'x'.repeat(MIN_SPANNED_BODY - 1);
  t.is(findBodySpan(Buffer.from(HEAD + short), short), undefined);
  const emoji = `${'🙂'.repeat(MIN_SPANNED_BODY)}`;
  const cut = emoji.slice(0, -1); // ends with a lone high surrogate
  t.is(findBodySpan(Buffer.from(HEAD + emoji), cut), undefined);
  const blankFirst = `\n${BODY}`;
  t.is(findBodySpan(Buffer.from(HEAD + onWire(blankFirst)), blankFirst), undefined);
});

test('body span: whatever the raw and the body, a span found reads back as the body exactly', (t) => {
  const piece = fc.constantFrom('a', 'Z', ' ', '\n', '\r', '\r\n', 'é', '文', '🙂', '\ud800', '\uFEFF', '\u0000', 'line', 'line\n');
  const text = fc.array(piece, { maxLength: 600 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(text, text, fc.boolean(), (before, body, crlf) => {
      const padded = body.length < MIN_SPANNED_BODY ? body + 'p'.repeat(MIN_SPANNED_BODY) : body;
      const raw = Buffer.from(before + (crlf ? padded.replaceAll('\n', '\r\n') : padded), 'utf8');
      const span = findBodySpan(raw, padded);
      if (span !== undefined) t.is(bodyAt(raw, span), padded);
    }),
    { numRuns: 2000 },
  );
});

test('body span: a well-formed body without CR at the end of the raw is always found, with either line end', (t) => {
  const piece = fc.constantFrom('a', 'Z', ' ', '\n', 'é', '文', '🙂', '\uFEFF', '\u0000', 'line', 'line\n');
  // Before the body, characters the body never has: its first line occurs first where it starts.
  const before = fc.array(fc.constantFrom('Q', '#', '\r\n'), { maxLength: 50 }).map((parts) => parts.join(''));
  const body = fc.array(piece, { maxLength: 600 }).map((parts) => parts.join('')).filter((b) => !b.startsWith('\n'));
  fc.assert(
    fc.property(before, body, fc.boolean(), (head, text, crlf) => {
      const padded = text + 'p'.repeat(MIN_SPANNED_BODY);
      const raw = Buffer.from(head + (crlf ? padded.replaceAll('\n', '\r\n') : padded), 'utf8');
      const span = findBodySpan(raw, padded);
      t.deepEqual(span, { start: Buffer.byteLength(head), end: raw.byteLength });
    }),
    { numRuns: 2000 },
  );
});
