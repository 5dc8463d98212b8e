import './tripwire.js';
import test from 'ava';
import { newPrincipal, right } from '../support.js';
import { ALL_SCOPES, HOOK_URL, recordingTransport, setupWebhooks } from './support.js';

const page = { limit: 50, offset: 0 };
const provisioned = { url: HOOK_URL, events: ['identity.provisioned' as const] };

test('delivery log: one row per attempt, newest first, each with its status, duration and error; the next retry only on the last attempt of an unfinished delivery', async (t) => {
  const { app, principal, clock } = await setupWebhooks({ random: () => 0.5 });
  const hook = right(await app.webhooks.create(principal, provisioned));
  right(await app.identities.create(principal, { label: 'flaky' }));
  await app.webhooks.dispatchTick('w1');
  const answers = [503, 500, 204];
  const { transport } = recordingTransport((_sent, i) => ({ status: answers[i]! }));

  await app.webhooks.deliverTick('w1', transport);
  clock.advance(500);
  await app.webhooks.deliverTick('w1', transport);
  const retrying = right(await app.webhooks.attempts(principal, hook.id, page));
  t.is(retrying.total, 2);
  t.deepEqual(retrying.items.map((a) => [a.attempt, a.state, a.status_code, a.error]), [
    [2, 'pending', 500, 'the receiver answered 500'],
    [1, 'pending', 503, 'the receiver answered 503'],
  ]);
  t.is(retrying.items[0]!.next_retry_at, new Date(clock.now().getTime() + 1000).toISOString(), 'the last attempt shows when the retry is due');
  t.is(retrying.items[1]!.next_retry_at, null, 'an earlier attempt has no next retry');
  for (const row of retrying.items) {
    t.like(row, { event_type: 'identity.provisioned', replay: false });
    t.is(typeof row.duration_ms, 'number');
    t.regex(row.event_id, /^evt_/);
    t.regex(row.delivery_id, /^dlv_/);
  }
  t.true(retrying.items[0]!.attempted_at > retrying.items[1]!.attempted_at);

  clock.advance(1000);
  await app.webhooks.deliverTick('w1', transport);
  const done = right(await app.webhooks.attempts(principal, hook.id, page));
  t.deepEqual(done.items.map((a) => [a.attempt, a.state, a.status_code, a.next_retry_at]), [
    [3, 'delivered', 204, null],
    [2, 'pending', 500, null],
    [1, 'pending', 503, null],
  ]);
  t.deepEqual(right(await app.webhooks.attempts(principal, hook.id, { ...page, state: 'delivered' })).items.map((a) => a.attempt), [3]);
  const second = right(await app.webhooks.attempts(principal, hook.id, { limit: 1, offset: 1 }));
  t.like(second, { total: 3, limit: 1, offset: 1 });
  t.is(second.items[0]!.attempt, 2);
});

test('delivery log: an endpoint of another tenant answers webhook_not_found, and a delivery not yet attempted has no row', async (t) => {
  const { app, principal } = await setupWebhooks();
  const hook = right(await app.webhooks.create(principal, provisioned));
  right(await app.identities.create(principal, { label: 'x' }));
  await app.webhooks.dispatchTick('w1');
  t.is(right(await app.webhooks.attempts(principal, hook.id, page)).total, 0);
  const other = await newPrincipal(app, { scopes: ALL_SCOPES });
  t.like(await app.webhooks.attempts(other, hook.id, page), { left: { _tag: 'WebhookNotFound' } });
});
