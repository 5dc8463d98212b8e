import test from 'ava';
import { extract, htmlToView } from '../../src/index.js';
import { spacedCodes } from '../../src/extraction/split-codes.js';
import { message } from './helpers.js';

const top = (over: Parameters<typeof message>[0]) => extract(message(over)).top;

test('code layout: a code shown only as an image, its characters in the alt text, is the answer', (t) => {
  const answer = top({ subject: 'Your sign-in code', html: '<p>Your sign-in code is:</p><p><img src="https://example.com/code.png" alt="QX7K-92MD" width="180"></p><p>It expires soon.</p>' });
  t.is(answer?.value, 'QX7K-92MD');
  t.true((answer?.confidence ?? 0) >= 0.5);
});

test('code layout: a code only in an image title or an element aria-label is read where the element stands', (t) => {
  t.is(top({ subject: 'Your sign-in code', html: '<p>Your sign-in code is:</p><p><img src="c.png" alt="" title="482913"></p>' })?.value, '482913');
  t.is(htmlToView('<p>Code: <span aria-label="482913">482913</span></p>').text, 'Code: 482913', 'an element printing its own label is not read twice');
  t.is(htmlToView('<p><img src="logo.png" alt="Example Logo"> Hello</p>').text, 'Hello', 'an alt text that holds no code is not text');
});

test('code layout: a mixed-case code, one character per table cell, is read as the code', (t) => {
  const cells = [...'zieW9dMP4o'].map((c) => `<td>${c}</td>`).join('');
  t.is(top({ subject: 'Your verification code', html: `<p>Your verification code is:</p><table><tr>${cells}</tr></table>` })?.value, 'zieW9dMP4o');
});

test('code layout: letter-spaced, grouped and dashed codes are read without their separators', (t) => {
  const subject = 'Your verification code';
  t.is(top({ subject, text: 'Your verification code is:\n\nS R K Z P W\n\nIt expires in 10 minutes.' })?.value, 'SRKZPW');
  t.is(top({ subject, text: 'Your verification code is:\n\nzwRDr gqDEF\n' })?.value, 'zwRDrgqDEF');
  t.is(top({ subject, text: 'Your verification code is: zwRDr-gqDEF' })?.value, 'zwRDrgqDEF');
  t.is(top({ subject, text: 'Your verification code is:\n\n46b9 3d09 1058 c930 f321\n' })?.value, '46b93d091058c930f321');
});

test('code layout: prose, a code beside a word and tables of numbers spell no split code', (t) => {
  const found: string[] = [];
  const visit = (text: string): void => spacedCodes(text, (s, e) => void found.push(text.slice(s, e)));
  visit('Your Code Here and New York City, please read the FAQ now');
  visit('Your code is 482913 ABCD');
  visit('Disk\t2048\t1024\t512');
  visit('8\t1\t1\t\t7');
  t.deepEqual(found, []);
});
