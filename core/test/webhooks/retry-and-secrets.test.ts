import './tripwire.js';
import test from 'ava';
import fc from 'fast-check';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from '../../src/index.js';
import { openSecret, sealSecret } from '../../src/webhooks/secret-box.js';

test('retry: the specification defaults are 5 attempts, base 1 s, cap 30 min', (t) => {
  t.deepEqual(DEFAULT_RETRY_POLICY, { attempts: 5, baseMs: 1000, capMs: 1_800_000 });
});

test('retry: full jitter — the delay after failure n is random · min(cap, base · 2^(n-1)); none after the last', (t) => {
  const half = () => 0.5;
  t.deepEqual([1, 2, 3, 4].map((n) => retryDelayMs(DEFAULT_RETRY_POLICY, n, half)), [500, 1000, 2000, 4000]);
  t.is(retryDelayMs(DEFAULT_RETRY_POLICY, 5, half), undefined, 'the fifth failure was the last attempt');
  t.is(retryDelayMs(DEFAULT_RETRY_POLICY, 1, () => 0), 0);
  t.is(retryDelayMs(DEFAULT_RETRY_POLICY, 4, () => 0.999999), 7999);
});

test('retry: the cap bounds the delay however many attempts are allowed', (t) => {
  const policy = { attempts: 30, baseMs: 1000, capMs: 1_800_000 };
  t.is(retryDelayMs(policy, 25, () => 0.999999), 1_799_998);
  t.is(retryDelayMs({ attempts: 3, baseMs: 200, capMs: 300 }, 2, () => 0.5), 150);
});

test('retry: property — every delay lies in [0, min(cap, base·2^(n-1))) for any random value', (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 49 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 10_000 }), (n, r, base) => {
      const policy = { attempts: 50, baseMs: base, capMs: base * 100 };
      const delay = retryDelayMs(policy, n, () => r)!;
      const ceiling = Math.min(policy.capMs, base * 2 ** (n - 1));
      return Number.isInteger(delay) && delay >= 0 && (ceiling === 0 ? delay === 0 : delay < ceiling);
    }),
  );
  t.pass();
});

test('secret box: seals and opens; another key, another endpoint or a changed byte does not open', (t) => {
  const key = Buffer.alloc(32, 1);
  const sealed = sealSecret(key, 'whsec_abc', 'webhook:wh_1');
  t.false(sealed.includes('whsec_abc'));
  t.deepEqual(openSecret(key, sealed, 'webhook:wh_1'), { ok: true, secret: 'whsec_abc' });
  t.like(openSecret(Buffer.alloc(32, 2), sealed, 'webhook:wh_1'), { ok: false });
  t.like(openSecret(key, sealed, 'webhook:wh_2'), { ok: false, reason: 'the sealed secret failed authentication' });
  const payload = Buffer.from(sealed.split('.')[2]!, 'base64url');
  payload.writeUInt8(payload.readUInt8(payload.length - 1) ^ 1, payload.length - 1);
  const [version, kid] = sealed.split('.');
  t.like(openSecret(key, `${version}.${kid}.${payload.toString('base64url')}`, 'webhook:wh_1'), { ok: false });
  t.not(sealSecret(key, 'whsec_abc', 'webhook:wh_1'), sealed, 'a fresh nonce every time');
});
