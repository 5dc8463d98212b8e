import test from 'ava';
import { extract } from '../../src/index.js';
import { message } from './helpers.js';

test('extract: a six-digit code after "your code is" is the extraction', (t) => {
  const result = extract(message({ subject: 'Your sign-in code', text: 'Hello,\n\nYour verification code is 482913.\n\nIt expires in 10 minutes.' }));
  t.is(result.top?.type, 'otp');
  t.is(result.top?.value, '482913');
  t.true((result.top?.confidence ?? 0) >= 0.5);
});

test('extract: a notification without a secret yields nothing confident', (t) => {
  const result = extract(message({ subject: 'Your password was changed', text: 'Your password was changed on 2024-05-01 from 203.0.113.7.' }));
  t.true((result.top?.confidence ?? 0) < 0.5);
});
