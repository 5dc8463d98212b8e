import test from 'ava';
import fc from 'fast-check';
import { MODEL, explain, explainCandidate, extract, scoreWith, type Model } from '../../src/index.js';
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
