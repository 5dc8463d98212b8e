import test from 'ava';
import fc from 'fast-check';
import { MODEL, confidenceOf, confidences, explain, explainCandidate, extract, scoreWith, type Model } from '../../src/index.js';
import { message } from './helpers.js';

test('model: a signal without a fitted weight is weighed by the scale', (t) => {
  const model: Model = { scale: 2, bias: -1, weights: { 'otp.shape': 0.5 } };
  t.is(scoreWith(model, 'otp', { shape: 4, unseen: 1.5 }), -1 + 0.5 * 4 + 2 * 1.5);
  t.is(scoreWith(model, 'magic_link', { shape: 4 }), -1 + 2 * 4);
});

test('model: a candidate\'s contributions add up to its score, for any signals', (t) => {
  fc.assert(
    fc.property(fc.dictionary(fc.constantFrom('base', 'shape', 'labelled', 'token', 'novel'), fc.double({ min: -5, max: 5, noNaN: true })), (signals) => {
      const model: Model = { scale: 1.8, bias: 0.3, weights: { 'otp.base': 1.1, 'otp.shape': 2 } };
      const sum = explain({ type: 'otp', evidence: { sources: [], snippet: '', signals } }, model).reduce((a, c) => a + c.contribution, 0);
      return Math.abs(sum - scoreWith(model, 'otp', signals)) < 0.01;
    }),
  );
  t.pass();
});

test('explainCandidate: the terms that decided a reported code name its signals, largest first', (t) => {
  const top = extract(message({ subject: 'Your sign-in code', text: 'Your sign-in code is:\n\n739204\n' })).top;
  if (top === undefined) return t.fail('no candidate');
  const terms = explainCandidate(top);
  t.deepEqual(terms.map((c) => c.signal).sort(), ['bias', ...Object.keys(top.evidence.signals)].sort());
  const sizes = terms.map((c) => Math.abs(c.contribution));
  t.deepEqual(sizes, [...sizes].sort((a, b) => b - a));
  t.is(scoreWith(MODEL, 'otp', top.evidence.signals) > 0, true);
});

test('extract: a code after a label and a colon, ending its line, is found whatever the label\'s language', (t) => {
  const top = extract(message({ subject: 'Registrering', text: 'Registrering\n\nE-postadressen er bekreftet.\n\nBekreftelsesnøkkel: SzCqBTPDDB\n' })).top;
  t.is(top?.value, 'SzCqBTPDDB');
  t.is(top?.evidence.signals.labelled, 1);
});

test('confidences: a candidate\'s confidence is its own score\'s, by rank, never raised or shared by the other candidates', (t) => {
  const calibration = { best: { a: 0.9, b: 0.5 }, other: { a: 0.6, b: -0.5 } };
  fc.assert(
    fc.property(fc.array(fc.double({ min: -20, max: 20, noNaN: true }), { minLength: 2, maxLength: 6 }), (raw) => {
      const scores = [...raw].sort((x, y) => y - x);
      const all = confidences(scores, calibration);
      const alone = scores.map((s, i) => confidenceOf(s, i === 0, calibration));
      // A runner-up's own probability, capped by the candidate ranked above it.
      return all.every((p, i) => p === (i === 0 ? alone[0] : Math.min(alone[i] ?? 0, all[i - 1] ?? 1))) && confidences(scores.slice(0, 1), calibration)[0] === all[0];
    }),
  );
  t.pass();
});

test('extract: a code and a confirm link in one mail are both reported as sure', (t) => {
  const html = [
    '<p>Your verification code is <b>482913</b>.</p>',
    '<p>Or confirm your email address with one click:</p>',
    '<p><a href="https://app.example.com/verify?token=Zx81kQ2mNw74PpLr9sTeYv3B">Confirm email</a></p>',
  ].join('');
  const result = extract(message({ subject: 'Verify your email', html }));
  const code = result.candidates.find((c) => c.type === 'otp');
  const link = result.candidates.find((c) => c.type === 'magic_link');
  t.true((code?.confidence ?? 0) >= 0.5, `code ${code?.confidence}`);
  t.true((link?.confidence ?? 0) >= 0.5, `link ${link?.confidence}`);
});
