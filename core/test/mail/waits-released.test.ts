import test from 'ava';
import { right, tagOf } from '../support.js';
import { scriptedService } from './scripted-mail.js';

test('released waits: a wait whose caller aborts ends then, and leaves no waiter or timer behind', async (t) => {
  t.timeout(20_000, 'the wait must end at the abort, not after its 60 s');
  const { app, principal, newIdentity, sleeping } = await scriptedService();
  const identity = await newIdentity();
  const caller = new AbortController();
  const waiting = app.extractions.latest(principal, identity.id, { waitSeconds: 60, signal: caller.signal });
  await sleeping(1);
  t.is(app.longPolls.open(), 1);
  caller.abort();
  t.is(tagOf(await waiting), 'ExtractionNotFound');
  t.is(app.longPolls.open(), 0);
  t.is(app.longPolls.sleeping(), 0);
});

test('released waits: close ends pending waits at once, each answering what the store holds', async (t) => {
  t.timeout(20_000, 'close must end the wait, not leave it to run its 60 s');
  const { app, principal, newIdentity, sleeping } = await scriptedService();
  const identity = await newIdentity();
  const latest = right(await app.events.latestWaiting(principal, identity.id, { waitSeconds: 0 }));
  const extraction = app.extractions.latest(principal, identity.id, { waitSeconds: 60, type: 'otp' });
  const event = app.events.latestWaiting(principal, identity.id, { waitSeconds: 60, after: latest.id });
  await sleeping(2);
  await app.close();
  t.is(tagOf(await extraction), 'ExtractionNotFound');
  t.is(tagOf(await event), 'EventNotFound');
  t.is(app.longPolls.open(), 0);
  t.is(app.longPolls.sleeping(), 0);
});

test('released waits: after end, a new wait answers after one look without sleeping', async (t) => {
  t.timeout(20_000);
  const { app, principal, newIdentity } = await scriptedService();
  const identity = await newIdentity();
  app.longPolls.end();
  t.is(tagOf(await app.extractions.latest(principal, identity.id, { waitSeconds: 60 })), 'ExtractionNotFound');
  t.is(app.longPolls.sleeping(), 0);
});
