import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../src/index.js';

const setup = async () => {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, free: { grantSecret: Buffer.alloc(32, 7) } });
  await app.init();
  return { app, clock };
};

test('free tier: after 24 hours the identity answers identity_expired, and its address may have a new one', async (t) => {
  const { app, clock } = await setup();
  const made = await app.free.create({ clientIp: '203.0.113.5', grant: app.free.mintGrant().grant });
  if (E.isLeft(made)) return t.fail(JSON.stringify(made.left));
  const { id, token } = made.right as { id: string; token: string };
  t.like(await app.free.create({ clientIp: '203.0.113.5', grant: app.free.mintGrant().grant }), { left: { _tag: 'IpLimitReached' } });
  clock.advance(24 * 3_600_000);
  t.like(await app.free.get(id, token, '203.0.113.5'), { left: { _tag: 'FreeIdentityExpired' } });
  t.true(E.isRight(await app.free.create({ clientIp: '203.0.113.5', grant: app.free.mintGrant().grant })), 'the place of an expired identity is taken over');
});

test('free tier: a grant expires by the clock and is bound to the free tier', async (t) => {
  const { app, clock } = await setup();
  const { grant } = app.free.mintGrant(60_000);
  clock.advance(60_000);
  t.like(await app.free.create({ clientIp: '203.0.113.6', grant }), { left: { _tag: 'GrantExpired' } });
  const other = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, free: { grantSecret: Buffer.alloc(32, 7), projectId: 'proj_other' } });
  await other.init();
  t.like(await app.free.create({ clientIp: '203.0.113.7', grant: other.free.mintGrant().grant }), { left: { _tag: 'Forbidden' } }, 'minted for another project');
  t.like(await app.free.create({ clientIp: '203.0.113.8' }), { left: { _tag: 'Unauthorized' } });
});
