import type { EventRecord } from '@ephemail/core';
import test from 'ava';
import { startKafkaRelay } from '../src/index.js';
import { eventually, recordingLogger, service, unique } from './support.js';

// The relay's loop against the real core and a recording publisher: no broker needed here.

const positions = (batches: readonly (readonly EventRecord[])[]) => batches.flat().map((event) => event.position);

/** A publisher that records each batch it is given and fails while `failing()` says so. */
const recordingPublisher = (failing: (call: number) => boolean = () => false) => {
  const batches: EventRecord[][] = [];
  let calls = 0;
  const publish = async (events: readonly EventRecord[]): Promise<void> => {
    calls += 1;
    if (failing(calls)) throw new Error(`broker unavailable (call ${calls})`);
    batches.push([...events]);
  };
  return { publish, batches, calls: () => calls };
};

test('kafka relay: a failed send is logged and retried after a pause that doubles up to the cap, and nothing is skipped', async (t) => {
  const { app, history, log } = await service();
  await history(3, 0);
  const publisher = recordingPublisher((call) => call <= 3);
  const { logger, lines } = recordingLogger();
  const relay = startKafkaRelay(app, publisher, { owner: unique('host'), intervalMs: 10, maxBackoffMs: 25, logger });
  t.teardown(() => relay.stop());
  await eventually('the log to be published', () => publisher.batches.length > 0);
  const failures = lines.filter((line) => line.level === 'warn');
  t.deepEqual(failures.map((line) => line.fields.retryInMs), [20, 25, 25]);
  t.deepEqual(failures.map((line) => line.fields.error), ['broker unavailable (call 1)', 'broker unavailable (call 2)', 'broker unavailable (call 3)']);
  t.deepEqual(positions(publisher.batches), (await log()).map((event) => event.position));
});

test('kafka relay: passes never overlap, and a backlog goes out in full batches without waiting for the interval', async (t) => {
  const { app, history, log } = await service();
  await history(5, 1);
  let inFlight = 0;
  let most = 0;
  const batches: number[] = [];
  const publish = async (events: readonly EventRecord[]): Promise<void> => {
    most = Math.max(most, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    batches.push(events.length);
    inFlight -= 1;
  };
  const relay = startKafkaRelay(app, { publish }, { owner: unique('host'), intervalMs: 60_000, batch: 4 });
  t.teardown(() => relay.stop());
  const total = (await log()).length;
  await eventually('the backlog to be drained', () => batches.reduce((sum, n) => sum + n, 0) === total);
  t.deepEqual(batches, [4, 4, 4, 3]);
  t.is(most, 1);
});

test('kafka relay: stop waits for the pass in progress, then drains what was logged meanwhile', async (t) => {
  const { app, history, log } = await service();
  await history(1, 0);
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const published: EventRecord[] = [];
  const publish = async (events: readonly EventRecord[]): Promise<void> => {
    await gate;
    published.push(...events);
  };
  const relay = startKafkaRelay(app, { publish }, { owner: unique('host'), intervalMs: 60_000 });
  await history(2, 1);
  const stopped = relay.stop();
  open();
  await stopped;
  t.deepEqual(published.map((event) => event.position), (await log()).map((event) => event.position));
  t.is(await relay.stop(), undefined, 'a second stop is harmless');
});

test('kafka relay: stop resolves even when the final drain fails, and the cursor stays for the next start', async (t) => {
  const { app, history } = await service();
  const { logger, lines } = recordingLogger();
  const owner = unique('host');
  const relay = startKafkaRelay(app, recordingPublisher(() => true), { owner, intervalMs: 60_000, logger });
  await history(1, 0);
  await relay.stop();
  t.true(lines.some((line) => line.message.startsWith('kafka relay final drain failed')));
  const again: EventRecord[] = [];
  await app.relays.tick('kafka', owner, async (events) => void again.push(...events));
  t.deepEqual(again.map((event) => event.type), ['identity.provisioned', 'identity.squashed']);
});

test('kafka relay: while another process holds the lease, this one publishes nothing', async (t) => {
  const { app, history } = await service();
  await history(2, 0);
  const leader = recordingPublisher();
  const follower = recordingPublisher();
  const first = startKafkaRelay(app, leader, { owner: unique('host'), intervalMs: 5 });
  await eventually('the leader to publish', () => leader.batches.length > 0);
  const second = startKafkaRelay(app, follower, { owner: unique('host'), intervalMs: 5 });
  await history(2, 0);
  await eventually('the leader to publish the new events', () => leader.batches.flat().length === 8);
  await Promise.all([first.stop(), second.stop()]);
  t.is(follower.calls(), 0);
});
