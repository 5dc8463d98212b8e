import test from 'ava';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import type { Label, Sample } from '../extraction/corpus.js';
import { rngFor } from '../extraction/real/random.js';
import { encodeIn } from '../extraction/robustness/charsets.js';
import { composeMail } from '../extraction/robustness/compose.js';
import { isRight, labelHolds } from '../extraction/robustness/evaluate.js';
import { VARIANTS } from '../extraction/robustness/families/index.js';
import { anchors, htmlToText, textToHtml } from '../extraction/robustness/html.js';
import { caseOf, withMail, type Case } from '../extraction/robustness/mail.js';
import { encodeQuotedPrintable } from '../extraction/robustness/quoted-printable.js';
import { splitUrl, tokenPlace } from '../extraction/robustness/url.js';

// The instrument is tested, not the parser's speed: a busy machine must not trip its time budget
// (the first parse of a process also loads its decoders).
const parser = createPostalMimeMailParser({ timeBudgetMs: 600_000 });
const id = (): string => Math.random().toString(36).slice(2, 10);

const LINK = 'https://app.example.org/auth/confirm?email=ana%40inbox.test&token=Q7vX2kPz9LmN4rTb8WcY';
const CODE = '482913';

const raw = (subject: string, text: string, html: string): Buffer =>
  Buffer.from(
    [
      'From: Acme Accounts <no-reply@app.example.org>',
      'To: ana@inbox.test',
      `Subject: ${subject}`,
      'Date: Tue, 04 Mar 2025 10:00:00 +0000',
      `Message-ID: <${id()}@app.example.org>`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/alternative; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      text,
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      html,
      '--b1--',
      '',
    ].join('\r\n'),
  );

/** A hand-made mail as a case, parsed by the host's parser like a corpus mail. */
const handMade = async (kind: Label['kind'], lang = 'en'): Promise<Case> => {
  const bytes =
    kind === 'magic_link'
      ? raw('Confirm your email address', `Hello Ana,\n\nConfirm your address: ${LINK}\n\nThanks,\nAcme`, `<html><body><p>Hello Ana,</p><p><a href="${LINK.replace(/&/g, '&amp;')}">Confirm email</a></p><p>Thanks, Acme</p></body></html>`)
      : kind === 'otp'
        ? raw('Your verification code', `Hello Ana,\n\nYour code is: ${CODE}\n\nIt expires in 10 minutes.`, `<html><body><p>Hello Ana,</p><p>Your code is: <b>${CODE}</b></p><p>It expires in 10 minutes.</p></body></html>`)
        : raw('Welcome to Acme', 'Hello Ana,\n\nWelcome aboard. See https://app.example.org/docs for help.', '<html><body><p>Hello Ana,</p><p>Welcome aboard. See <a href="https://app.example.org/docs">the docs</a>.</p></body></html>');
  const file = `hand--${kind}--${lang}--${id()}.eml`;
  const label: Label = { file, source: 'test', lang, kind, value: kind === 'magic_link' ? LINK : kind === 'otp' ? CODE : null, link_purpose: kind === 'magic_link' ? 'verify_email' : null };
  const sample: Sample = { label, raw: bytes, product: 'hand', template: kind, split: 'dev' };
  const parsed = await parser.parse(bytes);
  if (!parsed.ok) throw new Error(`hand-made mail did not parse: ${JSON.stringify(parsed)}`);
  return caseOf(sample, parsed.message);
};

const roundTrip = async (c: Case, seed = 'test') => {
  const parsed = await parser.parse(composeMail(c.mail, rngFor(seed)));
  if (!parsed.ok) throw new Error('composed mail did not parse');
  return parsed.message;
};

test('robustness: a re-encoded mail parses back to the same subject, text and HTML', async (t) => {
  const c = await handMade('magic_link');
  for (const transfer of ['quoted-printable', 'base64', '8bit'] as const) {
    const m = await roundTrip(withMail(c, { encoding: { charset: 'utf-8', transfer } }));
    t.is(m.subject, c.mail.subject ?? '');
    t.is(m.text.replace(/\r\n/g, '\n'), c.mail.text ?? '');
    t.is(m.html.replace(/\r\n/g, '\n'), c.mail.html ?? '');
  }
});

test('robustness: a quoted-printable soft break placed inside a URL decodes back to the URL', async (t) => {
  const bytes = Buffer.from(`See ${LINK} now\n`);
  const at = bytes.indexOf('token=') + 3;
  const qp = encodeQuotedPrintable(bytes, { breaks: new Set([at]), lineLength: 1000 });
  t.true(qp.includes('tok=\r\nen=3D'));
  t.is(qp.replace(/=\r\n/g, ''), encodeQuotedPrintable(bytes, { lineLength: 1000 }));
  const c = withMail(await handMade('magic_link'), { encoding: { charset: 'utf-8', transfer: 'quoted-printable', breakInside: [LINK], breakAt: 'random' } });
  const composed = composeMail(c.mail, rngFor('qp')).toString('latin1');
  t.false(composed.includes(LINK.replace(/=/g, '=3D')), 'the link is never written in one piece');
  t.true((await roundTrip(c, 'qp')).text.includes(LINK));
});

test('robustness: every line of a quoted-printable body stays within its length', (t) => {
  const qp = encodeQuotedPrintable(Buffer.from(`${'ü'.repeat(200)} ${LINK}\n`), { lineLength: 20 });
  t.true(qp.split('\r\n').every((line) => line.length <= 20));
});

test('robustness: each legacy charset round-trips text of its language through the decoder', (t) => {
  const texts: [string, string][] = [
    ['windows-1252', 'Bestätigen Sie Ihre E-Mail-Adresse, Größe'],
    ['iso-8859-15', 'Réinitialisez votre mot de passe, œuvre, 5 €'],
    ['iso-8859-2', 'Potwierdź swój adres e-mail, żółć'],
    ['koi8-r', 'Подтвердите адрес электронной почты'],
    ['koi8-u', 'Підтвердьте адресу електронної пошти'],
    ['iso-8859-7', 'Επιβεβαιώστε τη διεύθυνσή σας'],
    ['windows-1256', 'أكّد عنوان بريدك الإلكتروني'],
    ['iso-2022-jp', 'メールアドレスの確認コード 482913 ｶﾀｶﾅ'],
    ['shift_jis', 'メールアドレスの確認コード 482913'],
    ['euc-jp', 'パスワードの再設定'],
    ['gbk', '请确认您的邮箱地址'],
    ['big5', '請確認您的電子郵件地址'],
    ['euc-kr', '이메일 주소를 확인해 주세요'],
    ['windows-1258', 'Xác nhận địa chỉ email của bạn'],
  ];
  for (const [charset, text] of texts) {
    const bytes = encodeIn(text, charset);
    t.true(charset === 'iso-2022-jp' ? bytes.every((b) => b < 0x80) : bytes.some((b) => b >= 0x80), charset);
    const back = new TextDecoder(charset).decode(bytes).normalize('NFC');
    t.is(back, (charset === 'iso-2022-jp' ? text.replace('ｶﾀｶﾅ', 'カタカナ') : text).normalize('NFC'), charset);
  }
});

test('robustness: Windows-1252 writes the euro sign, dashes and curly quotes at their standard bytes', (t) => {
  t.deepEqual([...encodeIn('€–—“”’', 'windows-1252')], [0x80, 0x96, 0x97, 0x93, 0x94, 0x92]);
});

test('robustness: a character a charset cannot hold becomes a numeric reference in HTML and ? in text', (t) => {
  t.is(encodeIn('a→b', 'windows-1252', 'html').toString('latin1'), 'a&#8594;b');
  t.is(encodeIn('a→b', 'windows-1252', 'text').toString('latin1'), 'a?b');
  t.is(encodeIn('Код', 'us-ascii', 'html').toString('latin1'), '&#1050;&#1086;&#1076;');
});

test('robustness: a mail written in a legacy charset parses back to its text and subject', async (t) => {
  const base = await handMade('otp', 'ru');
  const c = withMail(base, { subject: 'Ваш код подтверждения', text: `Ваш код: ${CODE}\n`, html: undefined, encoding: { charset: 'koi8-r', transfer: '8bit', subject: { charset: 'koi8-r', mode: 'Q' } } });
  const composed = composeMail(c.mail, rngFor('koi8'));
  t.true(composed.toString('latin1').includes('charset="koi8-r"'));
  const m = await roundTrip(c, 'koi8');
  t.is(m.subject, 'Ваш код подтверждения');
  t.true(m.text.includes(`Ваш код: ${CODE}`));
});

test('robustness: the HTML twin of a text part holds its link as an anchor, and the derived text holds it again', (t) => {
  const html = textToHtml(`Confirm: ${LINK}\n\nThanks`);
  t.deepEqual(anchors(html).map((a) => a.href), [LINK]);
  t.true(htmlToText(html, 'brackets').includes(LINK));
  t.deepEqual(anchors(textToHtml('Reset: {https://a.example.com/r/Ab12Cd34Ef56}')).map((a) => a.href), ['https://a.example.com/r/Ab12Cd34Ef56']);
});

test("robustness: a link's token is its longest random-looking part, wherever it is", (t) => {
  t.is(tokenPlace(splitUrl(LINK)!)?.value, 'Q7vX2kPz9LmN4rTb8WcY');
  t.is(tokenPlace(splitUrl('https://a.example.com/reset/9f86d081884c7d659a2feaa0c55ad015?lang=en')!)?.where, 'path');
  t.is(tokenPlace(splitUrl('https://a.example.com/#/verify/eyJhbGciOiJIUzI1NiJ9.e30.sig12345')!)?.where, 'fragment');
  t.is(tokenPlace(splitUrl('https://a.example.com/docs/getting-started')!), undefined);
});

test('robustness: every variant that applies keeps the label of a hand-made mail (secret shown, removed values gone)', async (t) => {
  const cases = [await handMade('magic_link'), await handMade('otp'), await handMade('none'), await handMade('otp', 'ja'), await handMade('magic_link', 'de')];
  for (const variant of VARIANTS) {
    for (const c of cases) {
      const out = variant.apply(c, rngFor(`${variant.name}:${c.file}`));
      if (out === undefined) continue;
      const m = await roundTrip(out, variant.name);
      t.true(labelHolds(m, out), `${variant.family} / ${variant.name} on ${c.expect.secret?.kind ?? 'none'}`);
    }
  }
});

test('robustness: every family applies to at least one hand-made mail', async (t) => {
  const cases = [await handMade('magic_link'), await handMade('otp'), await handMade('none')];
  for (const family of new Set(VARIANTS.map((v) => v.family))) t.true(VARIANTS.some((v) => v.family === family && cases.some((c) => v.apply(c, rngFor('x')) !== undefined)), family);
});

test('robustness: the variants that turn a positive negative expect no secret, the others keep a positive positive', async (t) => {
  for (const c of [await handMade('magic_link'), await handMade('otp')]) {
    for (const variant of VARIANTS) {
      const out = variant.apply(c, rngFor('neg'));
      if (out === undefined) continue;
      t.is(out.expect.secret === undefined, variant.family === 'negatives', `${variant.family} / ${variant.name}`);
    }
  }
});

test('robustness: a tracked link expects the wrapper, which carries the link or an opaque id', async (t) => {
  const c = await handMade('magic_link');
  const variant = VARIANTS.find((v) => v.family === 'tracking' && v.name === 'query-encoded');
  const out = variant?.apply(c, rngFor('track'));
  const value = out?.expect.secret?.value ?? '';
  t.not(value, LINK);
  t.is(new URL(value).searchParams.get('u'), LINK);
  t.deepEqual(out?.expect.alternatives, [LINK]);
});

test('robustness: a transformation is a function of its seed: the same seed writes the same bytes', async (t) => {
  const c = await handMade('magic_link');
  for (const variant of VARIANTS) {
    const a = variant.apply(c, rngFor('same'));
    const b = variant.apply(c, rngFor('same'));
    if (a === undefined || b === undefined) continue;
    t.true(composeMail(a.mail, rngFor('same')).equals(composeMail(b.mail, rngFor('same'))), variant.name);
  }
});

test('robustness: an answer is right when its value is expected and its confidence on the same side of 0.5', (t) => {
  const expect = { secret: { kind: 'otp' as const, value: '482 913' }, alternatives: ['482913'], also: [], linkPurpose: null };
  const top = (value: string, confidence: number) => ({ type: 'otp' as const, value, confidence, evidence: { sources: [], snippet: '', signals: {} } });
  t.true(isRight(expect, top('482913', 0.9)));
  t.false(isRight(expect, top('482913', 0.4)));
  t.false(isRight(expect, top('111111', 0.9)));
  const none = { secret: undefined, alternatives: [], also: [], linkPurpose: null };
  t.true(isRight(none, undefined));
  t.true(isRight(none, top('482913', 0.49)));
  t.false(isRight(none, top('482913', 0.5)));
});
