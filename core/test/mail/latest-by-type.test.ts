import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { right, tagOf } from '../support.js';
import { CODE, LINK, scriptedService } from './scripted-mail.js';

test('latest by type: a mail with a code (winner) and a sure link (runner-up) answers both a code read and a link read', async (t) => {
  const { app, principal, deliver, newIdentity } = await scriptedService();
  const identity = await newIdentity();
  await deliver(identity.email, CODE, LINK);
  const code = right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'otp' }));
  t.like(code, { type: 'otp', value: CODE.value, confidence: CODE.confidence, link_kind: null, runner_up: false });
  const link = right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'magic_link' }));
  t.like(link, { id: code.id, message_id: code.message_id, type: 'magic_link', value: LINK.value, confidence: LINK.confidence, link_kind: 'sign_in', runner_up: true });
  t.deepEqual(link.candidates, code.candidates, 'the ranked candidates are shown as the engine ranked them');
  t.like(right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0 })), { type: 'otp', runner_up: false });
});

test('latest by type: a runner-up below 0.5 does not answer; the latest message holding a sure secret of that type does', async (t) => {
  const { app, principal, deliver, newIdentity } = await scriptedService();
  const identity = await newIdentity();
  await deliver(identity.email, { ...LINK, value: 'https://app.example.com/first' });
  await deliver(identity.email, CODE, { ...LINK, value: 'https://app.example.com/unsubscribe', confidence: 0.3 });
  await deliver(identity.email, { ...CODE, value: '990011' });
  const link = right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'magic_link' }));
  t.like(link, { value: 'https://app.example.com/first', runner_up: false });
  t.like(right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'otp' })), { value: '990011' });
});

test('latest by type: none of that type is ExtractionNotFound naming the type', async (t) => {
  const { app, principal, deliver, newIdentity } = await scriptedService();
  const identity = await newIdentity();
  await deliver(identity.email, CODE);
  const none = await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'magic_link' });
  t.deepEqual(E.isLeft(none) && none.left, { _tag: 'ExtractionNotFound', identityId: identity.id, type: 'magic_link' });
});

test('latest by type: after names an extraction the caller holds; an older secret of the type does not answer, a newer one does', async (t) => {
  const { app, principal, deliver, newIdentity } = await scriptedService();
  const identity = await newIdentity();
  await deliver(identity.email, CODE);
  await deliver(identity.email, LINK);
  const link = right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'magic_link' }));
  t.is(tagOf(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'otp', after: link.id })), 'ExtractionNotFound');
  t.like(right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'otp' })), { value: CODE.value });
  await deliver(identity.email, { ...CODE, value: '314159' });
  t.like(right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'otp', after: link.id })), { value: '314159' });
});

test('latest by type: a wait for a link wakes on a mail whose link is a runner-up, and passes over a mail with a code only', async (t) => {
  const { app, principal, deliver, newIdentity, sleeping } = await scriptedService();
  const identity = await newIdentity();
  const waiting = app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 30, type: 'magic_link' });
  await sleeping();
  await deliver(identity.email, { ...CODE, value: '111111' });
  await deliver(identity.email, CODE, LINK);
  t.like(right(await waiting), { type: 'magic_link', value: LINK.value, runner_up: true });
});

test('latest by type: an identity that had an extraction before pointers were kept is read by type from its latest extraction, and gets no pointers later', async (t) => {
  const { app, principal, deliver, newIdentity } = await scriptedService();
  const identity = await newIdentity();
  await deliver(identity.email, CODE);
  // As a record written by an earlier version: a latest extraction, no per-type pointers.
  await app.deps.store.update('identities', identity.id, ({ version: _version, latest_extraction_by_type: _pointers, ...rest }) => rest);
  t.like(right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'otp' })), { value: CODE.value });
  await deliver(identity.email, LINK);
  const stored = (await app.deps.store.get('identities', identity.id))!;
  t.false('latest_extraction_by_type' in stored && stored.latest_extraction_by_type !== undefined, 'pointers started now would hide its older code');
  t.like(right(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'magic_link' })), { value: LINK.value });
  t.is(tagOf(await app.extractions.latest(principal, identity.id, { reveal: true, waitSeconds: 0, type: 'otp' })), 'ExtractionNotFound', 'its older code is not found by type (the latest extraction is a link)');
});
