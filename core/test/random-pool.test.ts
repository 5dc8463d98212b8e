import test from 'ava';
import { cryptoIds } from '../src/memory/system.js';
import { RandomPool } from '../src/memory/random-pool.js';

test('random pool: draws across refills are fresh bytes, never a repeat of earlier ones', (t) => {
  const pool = new RandomPool(64);
  const seen = new Set<string>();
  // 18-byte draws from a 64-byte pool cross a refill every fourth draw.
  for (let i = 0; i < 2_000; i += 1) {
    const hex = pool.bytes(18).toString('hex');
    t.false(seen.has(hex), `draw ${i} repeated an earlier one`);
    seen.add(hex);
  }
});

test('random pool: a draw is a copy that later draws do not overwrite', (t) => {
  const pool = new RandomPool(32);
  const first = pool.bytes(16);
  const kept = Buffer.from(first);
  for (let i = 0; i < 10; i += 1) pool.bytes(16);
  t.deepEqual(first, kept);
});

test('random pool: a draw larger than the pool is served whole', (t) => {
  t.is(new RandomPool(16).bytes(100).length, 100);
});

test('random pool: characters come only from the alphabet, about evenly', (t) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const text = new RandomPool().chars(alphabet, 62_000);
  t.is(text.length, 62_000);
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  t.deepEqual([...counts.keys()].sort(), [...alphabet].sort());
  // Expected 1,000 each; a modulo bias (256 % 62 = 8 favoured characters) would put those near 1,250.
  for (const [char, count] of counts) t.true(count > 820 && count < 1_180, `${char}: ${count}`);
});

test('crypto ids: prefixed, 8 time characters then 24 base64url characters, and distinct', (t) => {
  const ids = new Set(Array.from({ length: 5_000 }, () => cryptoIds.next('ident')));
  t.is(ids.size, 5_000);
  for (const id of ids) t.regex(id, /^ident_[0-9A-Za-z]{8}[A-Za-z0-9_-]{24}$/);
  // Within one millisecond the random parts differ, so 5,000 ids share at most a few time parts.
  t.true(new Set([...ids].map((id) => id.slice(14))).size === 5_000, 'the random parts alone are distinct');
  t.regex(cryptoIds.secret(14), /^[A-Za-z0-9]{14}$/);
});

test('crypto ids: the time part sorts as the time does, in byte order', async (t) => {
  const first = cryptoIds.next('evt');
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = cryptoIds.next('evt');
  t.true(first.slice(0, 12) < second.slice(0, 12), `${first} < ${second}`);
  // Byte order, as a B-tree keyed by id compares: no locale collation.
  t.true(Buffer.compare(Buffer.from(first.slice(0, 12)), Buffer.from(second.slice(0, 12))) < 0);
});
