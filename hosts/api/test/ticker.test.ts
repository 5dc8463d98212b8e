import test from 'ava';
import { spacedTicker } from '../src/ticker.js';

/** Work whose rounds the test ends by hand, counting how many started. */
const controlledWork = () => {
  const ends: (() => void)[] = [];
  const work = () => new Promise<void>((resolve) => ends.push(resolve));
  return { work, started: () => ends.length, end: (round: number) => ends[round]!() };
};

const until = async (condition: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
};

test('ticker: wake-ups during a tick cost one more tick after it, never an overlap', async (t) => {
  const rounds = controlledWork();
  const ticker = spacedTicker(rounds.work, () => undefined);
  ticker.tick();
  for (let i = 0; i < 5; i += 1) ticker.tick();
  t.is(rounds.started(), 1, 'no tick starts while one runs');
  rounds.end(0);
  await until(() => rounds.started() === 2);
  t.is(rounds.started(), 2);
  rounds.end(1);
  // Nothing woke it during the second tick: no third one comes (waited for, not raced).
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(rounds.started(), 2);
  await ticker.stop();
});

test('ticker: after stop no tick starts, and stop waits for the one in progress', async (t) => {
  const rounds = controlledWork();
  const ticker = spacedTicker(rounds.work, () => undefined);
  ticker.tick();
  ticker.tick();
  let stopped = false;
  const stopping = ticker.stop().then(() => (stopped = true));
  await new Promise((resolve) => setImmediate(resolve));
  t.false(stopped, 'the tick in progress is waited for');
  rounds.end(0);
  await stopping;
  ticker.tick();
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.is(rounds.started(), 1, 'neither the asked-for round nor a new wake-up ran');
});
