import './tripwire.js';
import { createHmac } from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { signWebhook, verifyWebhook } from '../../src/index.js';

/*
 * Fixed vectors. Each expected value was computed once, independently of the code under test,
 * with the openssl command line:
 *   printf '%s' '<timestamp>.<body>' | openssl dgst -sha256 -hmac '<secret>'
 * and cross-checked with node:crypto's createHmac (the last test recomputes them that way).
 */
const VECTORS = [
  {
    secret: 'whsec_test_0123456789abcdefghijklmnopqrstuv',
    timestamp: 1767225600,
    body: '{"id":"evt_fixed0000000000000000000","type":"identity.provisioned","timestamp":"2026-01-01T00:00:00.000Z","data":{"email":"a@inbox.test"}}',
    hex: 'c42bdc89039e0dcaf840f4f95f3080a9aa6a2dea73fcfe282f3eed00d7e5a824',
  },
  {
    secret: 'whsec_another_secret_value_for_vector_two__',
    timestamp: 1767225600,
    body: '{"id":"evt_fixed0000000000000000000","type":"identity.provisioned","timestamp":"2026-01-01T00:00:00.000Z","data":{"email":"a@inbox.test"}}',
    hex: 'ed780f69ccaa7194cb4b097727b9015907498f04ad63dc755d44f3fb4d8271b3',
  },
  { secret: 'whsec_empty_body_vector', timestamp: 2000000000, body: '', hex: 'f91e403b187924e70ed89b1d0db21fd2129ac938e9cbc729f0e1c47d8bea822f' },
  { secret: 'whsec_unicode', timestamp: 1767225601, body: '{"data":{"label":"caf\u00e9 \u2713"}}', hex: 'a17523e80dbb95b2cb63dbf730a8e819094c41cd1e66b8096b331c19433b80de' },
];

const NOW = 1767225600 * 1000;

const headers = (timestamp: number | string, signature: string, extra: Record<string, string> = {}) => ({
  'x-timestamp': String(timestamp),
  'x-signature': signature,
  ...extra,
});

test('signature: fixed vectors (HMAC-SHA256 over "<timestamp>.<raw body>", lowercase hex)', (t) => {
  for (const vector of VECTORS) t.is(signWebhook(vector.secret, vector.timestamp, vector.body), vector.hex);
  t.is(signWebhook(VECTORS[3]!.secret, VECTORS[3]!.timestamp, Buffer.from(VECTORS[3]!.body, 'utf8')), VECTORS[3]!.hex, 'bytes and string agree');
});

test('signature: the vectors match an independent HMAC computation', (t) => {
  for (const vector of VECTORS) {
    const independent = createHmac('sha256', Buffer.from(vector.secret, 'utf8')).update(Buffer.from(`${vector.timestamp}.${vector.body}`, 'utf8')).digest('hex');
    t.is(independent, vector.hex);
  }
});

test('verify: accepts the vector, in lowercase or uppercase hex, from a plain object or Headers', (t) => {
  const v = VECTORS[0]!;
  t.like(verifyWebhook(v.secret, headers(v.timestamp, v.hex), v.body, NOW), { valid: true, timestamp: v.timestamp });
  t.true(verifyWebhook(v.secret, headers(v.timestamp, v.hex.toUpperCase()), v.body, NOW).valid);
  t.true(verifyWebhook(v.secret, new Headers(headers(v.timestamp, v.hex)), Buffer.from(v.body), new Date(NOW)).valid);
  t.true(verifyWebhook(v.secret, { 'X-Timestamp': String(v.timestamp), 'X-Signature': v.hex }, v.body, NOW).valid, 'header names in any case');
});

test('verify: 300 s either way is accepted, 301 s is refused', (t) => {
  const v = VECTORS[0]!;
  for (const skew of [-300, 0, 300]) t.true(verifyWebhook(v.secret, headers(v.timestamp, v.hex), v.body, NOW + skew * 1000).valid, `skew ${skew}`);
  for (const skew of [-301, 301]) {
    t.deepEqual(verifyWebhook(v.secret, headers(v.timestamp, v.hex), v.body, NOW + skew * 1000), { valid: false, reason: 'timestamp_out_of_tolerance' });
  }
});

test('verify: a wrong secret, a changed timestamp or a malformed header is refused with a reason', (t) => {
  const v = VECTORS[0]!;
  t.deepEqual(verifyWebhook(VECTORS[1]!.secret, headers(v.timestamp, v.hex), v.body, NOW), { valid: false, reason: 'signature_mismatch' });
  t.deepEqual(verifyWebhook(v.secret, headers(v.timestamp + 1, v.hex), v.body, NOW), { valid: false, reason: 'signature_mismatch' });
  t.deepEqual(verifyWebhook(v.secret, headers(v.timestamp, v.hex.slice(2)), v.body, NOW), { valid: false, reason: 'malformed_signature' });
  t.deepEqual(verifyWebhook(v.secret, headers('17672256', v.hex), v.body, NOW), { valid: false, reason: 'malformed_timestamp' });
  t.deepEqual(verifyWebhook(v.secret, headers(`${v.timestamp}.5`, v.hex), v.body, NOW), { valid: false, reason: 'malformed_timestamp' });
});

test('verify: missing headers answer false with the reason', (t) => {
  const v = VECTORS[0]!;
  t.deepEqual(verifyWebhook(v.secret, { 'x-signature': v.hex }, v.body, NOW), { valid: false, reason: 'missing_timestamp' });
  t.deepEqual(verifyWebhook(v.secret, { 'x-timestamp': String(v.timestamp) }, v.body, NOW), { valid: false, reason: 'missing_signature' });
  t.deepEqual(verifyWebhook(v.secret, {}, v.body, NOW), { valid: false, reason: 'missing_timestamp' });
  t.deepEqual(verifyWebhook(v.secret, headers(v.timestamp, ''), v.body, NOW), { valid: false, reason: 'missing_signature' });
});

test('verify: changing any single byte of the body breaks the signature', (t) => {
  const v = VECTORS[0]!;
  const bytes = Buffer.from(v.body, 'utf8');
  for (let i = 0; i < bytes.length; i += 1) {
    const changed = Buffer.from(bytes);
    changed[i] = changed[i]! ^ 0x01;
    t.false(verifyWebhook(v.secret, headers(v.timestamp, v.hex), changed, NOW).valid, `byte ${i}`);
  }
});

test('verify: rotation overlap — a receiver with either secret accepts, through X-Signature-Previous for the old one', (t) => {
  const [fresh, old] = ['whsec_new_secret_after_rotation', 'whsec_old_secret_before_rotation'];
  const body = '{"id":"evt_x"}';
  const ts = NOW / 1000;
  const both = headers(ts, signWebhook(fresh, ts, body), { 'x-signature-previous': signWebhook(old, ts, body) });
  t.true(verifyWebhook(fresh, both, body, NOW).valid);
  t.true(verifyWebhook(old, both, body, NOW).valid);
  t.true(verifyWebhook([old, fresh], both, body, NOW).valid);
  t.false(verifyWebhook('whsec_some_third_secret', both, body, NOW).valid);
  const onlyNew = headers(ts, signWebhook(fresh, ts, body));
  t.false(verifyWebhook(old, onlyNew, body, NOW).valid, 'after the overlap the old secret no longer verifies');
});

// Alphanumeric secrets: HMAC pads short keys with zero bytes, so "k" and "k\0" would be one key.
const secretArb = fc.stringMatching(/^[A-Za-z0-9_]{1,64}$/);

test('verify: property — what is signed verifies; any other secret or body does not', (t) => {
  fc.assert(
    fc.property(secretArb, secretArb, fc.uint8Array(), fc.integer({ min: 1_000_000_000, max: 9_999_999_999 }), (a, b, body, ts) => {
      const sig = signWebhook(a, ts, body);
      if (!verifyWebhook(a, headers(ts, sig), body, ts * 1000).valid) return false;
      if (a !== b && verifyWebhook(b, headers(ts, sig), body, ts * 1000).valid) return false;
      const other = Buffer.concat([Buffer.from(body), Buffer.from([0])]);
      return !verifyWebhook(a, headers(ts, sig), other, ts * 1000).valid;
    }),
  );
  t.pass();
});
