import test from 'ava';
import fc from 'fast-check';
import { MASK, extract, redact, toRedactedExtraction, type Candidate, type Extraction } from '../../src/index.js';
import { message } from './helpers.js';

const candidate = (type: Candidate['type'], value: string, confidence = 0.9): Candidate => ({
  type,
  value,
  confidence,
  evidence: { sources: ['text'], snippet: `raw ${value} raw`, signals: {} },
});

const extraction = (cs: Candidate[]): Extraction => ({ top: cs[0], candidates: cs, ruleMismatch: false });

test('redact: codes keep their first and last character', (t) => {
  t.is(redact(candidate('otp', '482912')), `4${MASK}2`);
  t.is(redact(candidate('otp', 'KQVX-JWZG')), `K${MASK}G`);
});

test('redact: very short codes show only the mask', (t) => {
  t.is(redact(candidate('otp', '123')), MASK);
});

test('redact: links keep scheme and host', (t) => {
  t.is(redact(candidate('magic_link', 'https://app.example.com/verify?token=abc')), `https://app.example.com/${MASK}`);
  t.is(redact(candidate('magic_link', 'https://user:pw@app.example.com:8443/x')), `https://app.example.com:8443/${MASK}`);
});

test('toRedactedExtraction: says whether there is a secret and drops evidence', (t) => {
  const payload = toRedactedExtraction(extraction([candidate('otp', '771892'), candidate('magic_link', 'https://a.example.com/t/9f8e7d6c5b4a')]));
  t.true(payload.has_secret);
  t.is(payload.redacted_value, `7${MASK}2`);
  t.is(payload.candidates.length, 2);
  t.false(JSON.stringify(payload).includes('snippet'));
  t.false(toRedactedExtraction(extraction([])).has_secret);
});

const codeArb = fc.oneof(
  fc.stringMatching(/^[0-9]{4,10}$/),
  fc.stringMatching(/^[A-Z0-9]{4,20}$/),
  fc.stringMatching(/^[A-Z]{3,5}-[A-Z]{3,5}$/),
);
const linkArb = fc
  .tuple(fc.constantFrom('app.example.com', 'id.example.org', 'auth.example.net'), fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/))
  .map(([host, path]) => `https://${host}/${path}`);

test('redaction property: no payload contains a raw value, nor a 4-character run of a long code', (t) => {
  fc.assert(
    fc.property(fc.array(fc.oneof(codeArb.map((v) => candidate('otp', v)), linkArb.map((v) => candidate('magic_link', v))), { maxLength: 5 }), fc.double({ min: 0, max: 1, noNaN: true }), (cs, conf) => {
      const withConf = cs.map((c) => ({ ...c, confidence: conf }));
      const json = JSON.stringify(toRedactedExtraction(extraction(withConf)));
      for (const c of withConf) {
        if (json.includes(c.value)) return false;
        if (c.type === 'otp' && c.value.length > 5) {
          for (let i = 0; i + 4 <= c.value.length; i += 1) if (json.includes(c.value.slice(i, i + 4))) return false;
        }
      }
      return true;
    }),
  );
  t.pass();
});

test('redaction property: engine output run through the payload never leaks the code', (t) => {
  fc.assert(
    fc.property(fc.stringMatching(/^[1-9][0-9]{5,7}$/), (code) => {
      const json = JSON.stringify(toRedactedExtraction(extract(message({ subject: 'Your code', text: `Your verification code is ${code}.` }))));
      return !json.includes(code) && ![...Array(code.length - 3).keys()].some((i) => json.includes(code.slice(i, i + 4)));
    }),
  );
  t.pass();
});
