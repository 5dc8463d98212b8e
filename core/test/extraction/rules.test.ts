import test from 'ava';
import { ExtractionRulesSchema, extract } from '../../src/index.js';
import { message } from './helpers.js';

const mail = message({
  from: { address: 'security@accounts.example.com', name: 'Accounts' },
  subject: 'Your Acme login code',
  html: '<p>Your login code:</p><p>662810</p><p>Reference: ZX-4491-QQ</p><a href="https://accounts.example.com/verify?token=Hh7Jj8Kk9Ll0Mm1Nn2Bb3Vv4">Verify</a>',
});

test('rules: a sender pattern that does not match yields nothing for the identity', (t) => {
  const result = extract(mail, { sender_pattern: '@other\\.example\\.org$' });
  t.is(result.top, undefined);
  t.deepEqual(result.candidates, []);
  t.true(result.ruleMismatch);
});

test('rules: a matching sender and subject keep the generic result', (t) => {
  const result = extract(mail, { sender_pattern: '@accounts\\.example\\.com$', subject_pattern: 'login code' });
  t.false(result.ruleMismatch);
  t.is(result.top?.value, '662810');
});

test('rules: a subject pattern that does not match yields nothing', (t) => {
  t.true(extract(mail, { subject_pattern: '^Reset' }).ruleMismatch);
});

test('rules: the envelope sender also satisfies the sender pattern', (t) => {
  const m = message({ envelopeFrom: 'bounces@mailer.example.net', subject: 'Code', text: 'Your code is 551903' });
  t.false(extract(m, { sender_pattern: 'mailer\\.example\\.net' }).ruleMismatch);
});

test('rules: extraction_type narrows to one type', (t) => {
  t.true(extract(mail, { extraction_type: 'magic_link' }).candidates.every((c) => c.type === 'magic_link'));
  t.true(extract(mail, { extraction_type: 'otp' }).candidates.every((c) => c.type === 'otp'));
});

test('rules: code_pattern overrides the generic code finder', (t) => {
  const result = extract(mail, { code_pattern: 'Reference: ([A-Z]{2}-\\d{4}-[A-Z]{2})', extraction_type: 'otp' });
  t.is(result.top?.value, 'ZX-4491-QQ');
  t.true(result.top?.evidence.rule);
  t.true((result.top?.confidence ?? 0) > 0.9);
});

test('rules: a code_pattern that matches nothing yields no code', (t) => {
  t.is(extract(mail, { code_pattern: 'PIN (\\d{4})', extraction_type: 'otp' }).top, undefined);
});

test('rules: the schema rejects invalid regular expressions and unknown types', (t) => {
  t.false(ExtractionRulesSchema.safeParse({ sender_pattern: '(' }).success);
  t.false(ExtractionRulesSchema.safeParse({ extraction_type: 'sms' }).success);
  t.true(ExtractionRulesSchema.safeParse({ sender_pattern: '@example\\.com$', code_pattern: '\\d{6}' }).success);
});

test('rules: a rule code holding pattern characters is compared with links as plain text', (t) => {
  // The link carries nothing but the code: a link with a long token of its own besides the code
  // is a magic link in its own right, and never marks the code as carried.
  const mail = (code: string, link: string) => message({ subject: 'Your code', text: `Your code is ${code}. Or open https://accounts.example.com/verify?code=${link}` });
  // ')' once made the code an invalid pattern, so extract threw.
  t.is(extract(mail('12)34', 'Hh7Jj8Kk9Ll0Mm1Nn2'), { code_pattern: '\\d+\\)\\d+' }).top?.value, '12)34');
  // '.' once matched any character, so this link counted as carrying the code.
  const rule = { code_pattern: '\\d+\\.\\d+' };
  t.is(extract(mail('12.34', '12x34'), rule).top?.evidence.signals.link_carries_code, undefined);
  t.is(extract(mail('12.34', '12.34'), rule).top?.evidence.signals.link_carries_code, 1.2);
});
