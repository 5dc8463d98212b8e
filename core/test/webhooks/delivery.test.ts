import './tripwire.js';
import test from 'ava';
import { verifyWebhook } from '../../src/index.js';
import { newPrincipal, right } from '../support.js';
import { ALL_SCOPES, HOOK_URL, recordingTransport, setupWebhooks } from './support.js';

const page = { limit: 50, offset: 0 };
const provisioned = { url: HOOK_URL, events: ['identity.provisioned' as const] };

test('dispatch: one job per subscribed endpoint of the event’s tenant, nothing for others', async (t) => {
  const { app, principal } = await setupWebhooks();
  const other = await newPrincipal(app, { scopes: ALL_SCOPES });
  const a = right(await app.webhooks.create(principal, provisioned));
  const b = right(await app.webhooks.create(principal, { url: HOOK_URL, events: ['identity.provisioned', 'identity.squashed'] }));
  const c = right(await app.webhooks.create(principal, { url: HOOK_URL, events: ['email.received'] }));
  const foreign = right(await app.webhooks.create(other, provisioned));
  const identity = right(await app.identities.create(principal, { label: 'x' }));
  right(await app.identities.squash(principal, identity.id));
  t.like(await app.webhooks.dispatchTick('w1'), { leader: true, handled: 2, enqueued: 3 });
  const total = async (id: string) => right(await app.webhooks.deliveries(principal, id, page)).total;
  t.deepEqual([await total(a.id), await total(b.id), await total(c.id)], [1, 2, 0]);
  t.is(right(await app.webhooks.deliveries(other, foreign.id, page)).total, 0);
  t.like(await app.webhooks.dispatchTick('w1'), { handled: 0, enqueued: 0 });
});

test('dispatch: events handed again (a crash before the cursor moved) enqueue nothing twice', async (t) => {
  const { app, principal, store } = await setupWebhooks();
  right(await app.webhooks.create(principal, provisioned));
  for (let i = 0; i < 5; i += 1) right(await app.identities.create(principal, { label: `x${i}` }));
  t.like(await app.webhooks.dispatchTick('w1'), { enqueued: 5 });
  const cursor = (await store.get('relay_cursors', 'webhooks'))!;
  t.true(await store.replace('relay_cursors', { id: 'webhooks', position: 0, gap_since: null }, cursor.version));
  t.like(await app.webhooks.dispatchTick('w1'), { handled: 5, enqueued: 0 }, 'the same five events again, no new job');
  t.is(await store.count('webhook_deliveries'), 5);
});

test('dispatch: an endpoint does not receive events from before it existed', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  right(await app.identities.create(principal, { label: 'before' }));
  clock.advance(1);
  const hook = right(await app.webhooks.create(principal, provisioned));
  right(await app.identities.create(principal, { label: 'after' }));
  t.like(await app.webhooks.dispatchTick('w1'), { handled: 2, enqueued: 1 });
  t.is(right(await app.webhooks.deliveries(principal, hook.id, page)).total, 1);
});

test('deliver: posts {id, type, timestamp, data} signed with the endpoint secret; a 2xx marks it delivered', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, provisioned));
  const identity = right(await app.identities.create(principal, { label: 'signed' }));
  const event = right(await app.events.latest(principal, identity.id));
  await app.webhooks.dispatchTick('w1');
  clock.advance(7000);
  const { transport, sent } = recordingTransport(() => ({ status: 204 }));
  t.like(await app.webhooks.deliverTick('w1', transport), { claimed: 1, delivered: 1, retrying: 0, failed: 0, lost: 0 });
  const [post] = sent;
  t.is(post!.url, HOOK_URL);
  t.is(post!.timeoutMs, 10_000);
  t.deepEqual(JSON.parse(post!.body), { id: event.id, type: 'identity.provisioned', timestamp: event.occurred_at, data: event.data });
  t.is(post!.headers['x-timestamp'], String(Math.floor(clock.now().getTime() / 1000)), 'signed at the attempt, not at the event');
  t.is(post!.headers['content-type'], 'application/json');
  t.is(post!.headers['x-signature-previous'], undefined);
  t.true(verifyWebhook(hook.secret, post!.headers, post!.body, clock.now()).valid);
  const [logged] = right(await app.webhooks.deliveries(principal, hook.id, page)).items;
  t.like(logged, { event_id: event.id, event_type: 'identity.provisioned', state: 'delivered', attempt: 1, status_code: 204, next_retry_at: null, error: null, replay: false });
  t.is((await app.webhooks.deliverTick('w1', transport)).claimed, 0, 'nothing is delivered twice');
});

test('deliver: failures retry on the backoff schedule under the fake clock, then end failed; replay queues it again', async (t) => {
  const { app, principal, clock } = await setupWebhooks({ random: () => 0.5 });
  const hook = right(await app.webhooks.create(principal, provisioned));
  right(await app.identities.create(principal, { label: 'flaky' }));
  await app.webhooks.dispatchTick('w1');
  const { transport, sent } = recordingTransport(() => ({ status: 503 }));
  const expectedDelays = [500, 1000, 2000, 4000];
  t.like(await app.webhooks.deliverTick('w1', transport), { retrying: 1 });
  for (const delay of expectedDelays) {
    const [job] = right(await app.webhooks.deliveries(principal, hook.id, page)).items;
    if (job!.state === 'failed') break;
    t.is(job!.next_retry_at, new Date(clock.now().getTime() + delay).toISOString(), `retry after ${delay} ms`);
    clock.advance(delay - 1);
    t.is((await app.webhooks.deliverTick('w1', transport)).claimed, 0, 'not due 1 ms early');
    clock.advance(1);
    t.is((await app.webhooks.deliverTick('w1', transport)).claimed, 1);
  }
  t.is(sent.length, 5);
  const [job] = right(await app.webhooks.deliveries(principal, hook.id, page)).items;
  t.like(job, { state: 'failed', attempt: 5, status_code: 503, next_retry_at: null, error: 'the receiver answered 503 (last of 5 attempts)' });
  // 7.5 s of backoff in all: each attempt is signed with the clock at that attempt.
  t.deepEqual(sent.map((s) => Number(s.headers['x-timestamp']) - Number(sent[0]!.headers['x-timestamp'])), [0, 0, 1, 3, 7]);
  const replay = right(await app.webhooks.replay(principal, hook.id, job!.event_id));
  t.like(replay, { event_id: job!.event_id, webhook_id: hook.id, status: 'queued' });
  clock.advance(3000);
  const ok = recordingTransport();
  t.like(await app.webhooks.deliverTick('w1', ok.transport), { delivered: 1 });
  t.is(JSON.parse(ok.sent[0]!.body).id, job!.event_id, 'same event id');
  t.is(ok.sent[0]!.body, sent[0]!.body, 'same payload');
  t.not(ok.sent[0]!.headers['x-timestamp'], sent[4]!.headers['x-timestamp'], 'fresh timestamp');
  t.true(verifyWebhook(hook.secret, ok.sent[0]!.headers, ok.sent[0]!.body, clock.now()).valid);
  const log = right(await app.webhooks.deliveries(principal, hook.id, page));
  t.deepEqual(log.items.map((d) => [d.state, d.replay]), [['delivered', true], ['failed', false]]);
  t.is(right(await app.webhooks.deliveries(principal, hook.id, { ...page, state: 'failed' })).total, 1);
});

test('deliver: a 410 ends the delivery failed at once, recorded; the endpoint stays enabled', async (t) => {
  const { app, principal } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, provisioned));
  right(await app.identities.create(principal, { label: 'gone' }));
  await app.webhooks.dispatchTick('w1');
  t.like(await app.webhooks.deliverTick('w1', recordingTransport(() => ({ status: 410 })).transport), { failed: 1 });
  const [job] = right(await app.webhooks.deliveries(principal, hook.id, page)).items;
  t.like(job, { state: 'failed', attempt: 1, status_code: 410 });
  t.regex(job!.error!, /410/);
  t.is(right(await app.webhooks.get(principal, hook.id)).url, HOOK_URL);
  right(await app.identities.create(principal, { label: 'still subscribed' }));
  t.like(await app.webhooks.dispatchTick('w1'), { enqueued: 1 });
});

test('deliver: 3xx and 4xx are failures (redirects are not followed); a transport error is recorded as the attempt’s error', async (t) => {
  const { app, principal } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, provisioned));
  right(await app.identities.create(principal, { label: 'a' }));
  right(await app.identities.create(principal, { label: 'b' }));
  right(await app.identities.create(principal, { label: 'c' }));
  await app.webhooks.dispatchTick('w1');
  const answers = [{ status: 302 }, { status: 400 }, { error: 'timeout after 10000 ms' }];
  t.like(await app.webhooks.deliverTick('w1', recordingTransport((_s, i) => answers[i]!).transport), { retrying: 3 });
  const errors = right(await app.webhooks.deliveries(principal, hook.id, page)).items.map((d) => d.error).sort();
  t.deepEqual(errors, ['the receiver answered 302', 'the receiver answered 400', 'timeout after 10000 ms']);
});

test('deliver: rotation overlap — both signatures for 24 h, then only the new one', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, provisioned));
  const rotated = right(await app.webhooks.rotateSecret(principal, hook.id));
  const { transport, sent } = recordingTransport();
  right(await app.identities.create(principal, { label: 'during' }));
  await app.webhooks.dispatchTick('w1');
  await app.webhooks.deliverTick('w1', transport);
  const during = sent[0]!;
  t.true(verifyWebhook(rotated.secret, during.headers, during.body, clock.now()).valid, 'new secret');
  t.true(verifyWebhook(hook.secret, during.headers, during.body, clock.now()).valid, 'old secret, through X-Signature-Previous');
  t.truthy(during.headers['x-signature-previous']);
  clock.advance(24 * 3_600_000);
  right(await app.identities.create(principal, { label: 'after' }));
  await app.webhooks.dispatchTick('w1');
  await app.webhooks.deliverTick('w1', transport);
  const after = sent[1]!;
  t.is(after.headers['x-signature-previous'], undefined);
  t.true(verifyWebhook(rotated.secret, after.headers, after.body, clock.now()).valid);
  t.false(verifyWebhook(hook.secret, after.headers, after.body, clock.now()).valid);
});

test('deliver: a job whose worker died is taken over after its lease; the late worker’s outcome is dropped', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, provisioned));
  right(await app.identities.create(principal, { label: 'stuck' }));
  await app.webhooks.dispatchTick('w1');
  let release!: () => void;
  const stuck = recordingTransport(() => new Promise((resolve) => (release = () => resolve({ status: 500 }))));
  const dying = app.webhooks.deliverTick('dead', stuck.transport);
  await new Promise((resolve) => setImmediate(resolve));
  t.like(right(await app.webhooks.deliveries(principal, hook.id, page)).items[0], { state: 'delivering' });
  t.is((await app.webhooks.deliverTick('w2', recordingTransport().transport)).claimed, 0, 'leased');
  clock.advance(30_000);
  t.like(await app.webhooks.deliverTick('w2', recordingTransport().transport), { delivered: 1 });
  release();
  t.like(await dying, { claimed: 1, lost: 1 });
  t.like(right(await app.webhooks.deliveries(principal, hook.id, page)).items[0], { state: 'delivered', attempt: 1, status_code: 200 });
});

test('deliver: a job abandoned by 10 workers in a row is given up, not retried forever', async (t) => {
  const { app, principal, clock } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, provisioned));
  right(await app.identities.create(principal, { label: 'poison' }));
  await app.webhooks.dispatchTick('w1');
  const never = recordingTransport(() => new Promise(() => {}));
  for (let i = 0; i < 10; i += 1) {
    void app.webhooks.deliverTick(`crash-${i}`, never.transport);
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(30_000);
  }
  t.like(await app.webhooks.deliverTick('w', recordingTransport().transport), { failed: 1 });
  t.like(right(await app.webhooks.deliveries(principal, hook.id, page)).items[0], { state: 'failed', attempt: 0 });
  t.is(never.sent.length, 10);
});

test('deliver: deliveries of a deleted endpoint end failed with the reason', async (t) => {
  const { app, principal, store } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, provisioned));
  right(await app.identities.create(principal, { label: 'orphan' }));
  await app.webhooks.dispatchTick('w1');
  right(await app.webhooks.remove(principal, hook.id));
  const { transport, sent } = recordingTransport();
  t.like(await app.webhooks.deliverTick('w1', transport), { failed: 1 });
  t.is(sent.length, 0);
  const [job] = await store.find('webhook_deliveries', {});
  t.like(job, { status: 'failed', last_error: 'the webhook endpoint was deleted' });
});

test('deliver: with another data key the secret cannot be opened, so the attempt fails instead of going out unsigned', async (t) => {
  const first = await setupWebhooks();
  const hook = right(await first.app.webhooks.create(first.principal, provisioned));
  const { createEphemail } = await import('../../src/index.js');
  const restarted = createEphemail({ store: first.store, inboxDomain: 'inbox.test', clock: first.clock, dataKey: Buffer.alloc(32, 9) });
  right(await first.app.identities.create(first.principal, { label: 'k' }));
  await restarted.webhooks.dispatchTick('w1');
  const { transport, sent } = recordingTransport();
  t.like(await restarted.webhooks.deliverTick('w1', transport), { retrying: 1 });
  t.is(sent.length, 0);
  const [job] = right(await restarted.webhooks.deliveries(first.principal, hook.id, page)).items;
  t.regex(job!.error!, /^cannot sign: the secret was sealed under another data key/);
  right(await restarted.webhooks.rotateSecret(first.principal, hook.id));
  first.clock.advance(60_000);
  t.like(await restarted.webhooks.deliverTick('w1', transport), { delivered: 1 }, 'a rotation under the new key heals it');
});

test('deliver: race — eight workers ticking at once deliver each job exactly once', async (t) => {
  const { app, principal } = await setupWebhooks();
  right(await app.webhooks.create(principal, provisioned));
  right(await app.webhooks.create(principal, provisioned));
  for (let i = 0; i < 40; i += 1) right(await app.identities.create(principal, { label: `r${i}` }));
  await app.webhooks.dispatchTick('w1');
  const { transport, sent } = recordingTransport();
  const reports = await Promise.all(Array.from({ length: 8 }, (_, i) => app.webhooks.deliverTick(`w${i}`, transport, { concurrency: 4, batch: 10 })));
  t.is(reports.reduce((sum, r) => sum + r.delivered, 0), 80);
  t.is(sent.length, 80);
  t.is(new Set(sent.map((s) => `${s.body}|${s.url}|${s.headers['x-signature']}`)).size, 80);
});
