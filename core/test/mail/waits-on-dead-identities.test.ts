import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { right, tagOf } from '../support.js';
import { CODE, scriptedService } from './scripted-mail.js';

const HOUR = 3_600_000;

test('dead waits: a wait on a squashed identity answers IdentityAlreadySquashed at once, even when it holds an extraction', async (t) => {
  const { app, principal, deliver, newIdentity } = await scriptedService();
  const identity = await newIdentity();
  await deliver(identity.email, CODE);
  right(await app.identities.squash(principal, identity.id));
  t.is(tagOf(await app.extractions.latest(principal, identity.id, { waitSeconds: 60 })), 'IdentityAlreadySquashed');
  t.is(tagOf(await app.extractions.latest(principal, identity.id, { waitSeconds: 60, type: 'otp' })), 'IdentityAlreadySquashed');
  t.is(tagOf(await app.events.latestWaiting(principal, identity.id, { waitSeconds: 60 })), 'IdentityAlreadySquashed');
  t.is(app.longPolls.open(), 0);
});

test('dead waits: a read without wait of a squashed identity still answers what it received', async (t) => {
  const { app, principal, deliver, newIdentity } = await scriptedService();
  const identity = await newIdentity();
  await deliver(identity.email, CODE);
  right(await app.identities.squash(principal, identity.id));
  t.like(right(await app.extractions.latest(principal, identity.id, { waitSeconds: 0, reveal: true })), { value: CODE.value });
  t.is(right(await app.events.latestWaiting(principal, identity.id, { waitSeconds: 0 })).type, 'identity.squashed');
});

test('dead waits: a wait on an identity whose TTL has passed answers IdentityExpired at once', async (t) => {
  const { app, clock, principal, newIdentity } = await scriptedService();
  const identity = await newIdentity(1);
  clock.advance(HOUR + 1);
  t.is(tagOf(await app.extractions.latest(principal, identity.id, { waitSeconds: 60, type: 'magic_link' })), 'IdentityExpired');
  t.is(tagOf(await app.events.latestWaiting(principal, identity.id, { waitSeconds: 60 })), 'IdentityExpired');
});

test('dead waits: a wait ends with IdentityAlreadySquashed when the identity is squashed while it waits', async (t) => {
  const { app, principal, newIdentity, sleeping } = await scriptedService();
  const identity = await newIdentity();
  const latest = right(await app.events.latestWaiting(principal, identity.id, { waitSeconds: 0 }));
  const extraction = app.extractions.latest(principal, identity.id, { waitSeconds: 60, type: 'otp' });
  const event = app.events.latestWaiting(principal, identity.id, { waitSeconds: 60, after: latest.id });
  await sleeping(2);
  right(await app.identities.squash(principal, identity.id));
  t.is(tagOf(await extraction), 'IdentityAlreadySquashed');
  t.is(tagOf(await event), 'IdentityAlreadySquashed');
  t.is(app.longPolls.sleeping(), 0);
});

test('dead waits: a wait ends with IdentityExpired when the expiry job expires the identity while it waits', async (t) => {
  const { app, clock, principal, newIdentity, sleeping } = await scriptedService();
  const identity = await newIdentity(1);
  const events = right(await app.events.list(principal, identity.id, { limit: 1, offset: 0 }));
  const extraction = app.extractions.latest(principal, identity.id, { waitSeconds: 60 });
  const event = app.events.latestWaiting(principal, identity.id, { waitSeconds: 60, after: events.items[0]!.id });
  await sleeping(2);
  clock.advance(HOUR + 1);
  t.is((await app.maintenance.tick('test-owner')).expired, 1);
  const outcome = await extraction;
  t.deepEqual(E.isLeft(outcome) && outcome.left, { _tag: 'IdentityExpired', id: identity.id });
  t.is(tagOf(await event), 'IdentityExpired');
});

test('dead waits: a wait ends with IdentityExpired when the TTL runs out while it waits, though no expiry job runs', async (t) => {
  t.timeout(20_000, 'a wait that slept past the TTL would run its 60 s');
  const { app, clock, principal, newIdentity, sleeping } = await scriptedService();
  const identity = await newIdentity(1);
  // 50 ms of the injected clock before the TTL ends: the wait sleeps no later than that, then looks again.
  clock.advance(HOUR - 50);
  const waiting = app.extractions.latest(principal, identity.id, { waitSeconds: 60, type: 'otp' });
  await sleeping(1);
  clock.advance(100);
  t.is(tagOf(await waiting), 'IdentityExpired');
  t.is(right(await app.identities.get(principal, identity.id)).status, 'expired', 'a read after it records the expiry');
});
