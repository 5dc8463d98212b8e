import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import type { WebhookTransport } from '../src/index.js';
import { normalizeHostname } from '../src/index.js';
import { setup } from './support.js';

/** A target that counts its triggers and answers `status` after `delayMs`. */
const countingTarget = (status = 200, delayMs = 5) => {
  const calls: string[] = [];
  const transport: WebhookTransport = {
    post: async (url, _headers, body) => {
      calls.push(body);
      await new Promise((r) => setTimeout(r, delayMs));
      return { status };
    },
  };
  return { calls, transport };
};

const startRun = async () => {
  const ctx = await setup({ scopes: ['identities:read', 'identities:write', 'reliability:write'] });
  const identity = await ctx.app.identities.create(ctx.principal, { label: 'r' });
  if (E.isLeft(identity)) throw new Error(identity.left._tag);
  const run = await ctx.app.reliability.passwordReset(ctx.principal, { target_url: 'https://app.example.com/reset', identity_id: identity.right.id, timeout_seconds: 30 });
  if (E.isLeft(run)) throw new Error(run.left._tag);
  return { ...ctx, identity: identity.right, run: run.right };
};

test('reliability jobs: of ten workers ticking at once, one triggers the run, once', async (t) => {
  const { app, identity } = await startRun();
  const target = countingTarget();
  const reports = await Promise.all(Array.from({ length: 10 }, (_, i) => app.reliability.jobsTick(`w${i}`, target.transport)));
  t.is(reports.reduce((n, r) => n + r.triggered, 0), 1);
  t.deepEqual(target.calls, [JSON.stringify({ email: identity.email })]);
  const after = await Promise.all(Array.from({ length: 10 }, (_, i) => app.reliability.jobsTick(`w${i}`, target.transport)));
  t.is(after.reduce((n, r) => n + r.triggered, 0), 0);
  t.is(target.calls.length, 1);
});

test('reliability jobs: the deadline fires by the clock, and a trigger cut short fails the run instead of triggering again', async (t) => {
  const { app, clock, principal, run } = await startRun();
  const target = countingTarget();
  await app.reliability.jobsTick('w1', target.transport);
  clock.advance(29_000);
  t.is((await app.reliability.jobsTick('w1', target.transport)).timedOut, 0);
  clock.advance(1_000);
  t.is((await app.reliability.jobsTick('w1', target.transport)).timedOut, 1);
  t.like(await app.reliability.get(principal, run.id), { right: { status: 'timeout' } });

  // A worker that claimed the trigger and died: the lease runs out, the run fails, no second call.
  const second = await startRun();
  let triggered!: () => void;
  const claimed = new Promise<void>((resolve) => (triggered = resolve));
  const dead: WebhookTransport = { post: () => (triggered(), new Promise(() => undefined)) };
  void second.app.reliability.jobsTick('dying', dead);
  await claimed;
  second.clock.advance(31_000);
  const other = countingTarget();
  t.is((await second.app.reliability.jobsTick('w2', other.transport)).failed, 1);
  t.is(other.calls.length, 0);
  t.like(await second.app.reliability.get(second.principal, second.run.id), { right: { status: 'failed', failure_reason: 'the host stopped while triggering; the run is not triggered twice' } });
});

test('hostname: lower case, no trailing dot, IDN in punycode; addresses, single labels and bad labels refused', (t) => {
  t.deepEqual(normalizeHostname('Mail.Example.COM.'), { ok: true, domain: 'mail.example.com' });
  t.deepEqual(normalizeHostname('bücher.example'), { ok: true, domain: 'xn--bcher-kva.example' });
  for (const bad of ['localhost', '10.0.0.1', 'a..b.com', '-a.example.com', 'a-.example.com', 'https://example.com', 'example.com:25', `${'a'.repeat(64)}.com`, '']) {
    t.false(normalizeHostname(bad).ok, bad);
  }
});
