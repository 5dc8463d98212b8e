import test from 'ava';
import { message } from '../extraction/helpers.js';
import { right } from '../support.js';
import { marketplaceSetup } from './support.js';

const ID = 'tmpl_bitwarden_two_factor_v1';
const params = { sender_domain: 'vault.example.com' };
const codeMail = (to: string) =>
  message({ from: { address: 'no-reply@vault.example.com', name: 'Bitwarden' }, to: [{ address: to, name: '' }], subject: 'Your Bitwarden Verification Code', text: 'Your two-step verification code is: 697737' });

test('outcomes: with none yet, a template reports its author’s expected figures', async (t) => {
  const { app } = await marketplaceSetup();
  const tpl = right(await app.marketplace.get(ID));
  t.is(tpl.success_rate, 0.97);
  t.is(tpl.estimated_duration_seconds, 10);
});

test('outcomes: deployments end on their first extraction or their end, and move the figures by the documented formula', async (t) => {
  const { app, clock, principal, deliver } = await marketplaceSetup();
  const quick = right(await app.marketplace.deploy(principal, ID, { parameters: params }));
  const never = right(await app.marketplace.deploy(principal, ID, { parameters: params }));
  clock.advance(34_000);
  await deliver(quick.identity.email, codeMail(quick.identity.email));
  right(await app.identities.squash(principal, never.identity.id));
  await app.marketplace.outcomesTick('worker-1');
  const tpl = right(await app.marketplace.get(ID));
  // success: (1 + 3·0.97) / (1 + 1 + 3); duration: (34 + 3·10) / (1 + 3).
  t.is(tpl.success_rate, Math.round(((1 + 3 * 0.97) / 5) * 1000) / 1000);
  t.is(tpl.estimated_duration_seconds, 16);
  t.is(tpl.deploy_count, 2);
  // A second mail and a later tick change nothing: the first ending wins.
  await deliver(quick.identity.email, codeMail(quick.identity.email));
  await app.marketplace.outcomesTick('worker-1');
  t.deepEqual(right(await app.marketplace.get(ID)), tpl);
});

test('outcomes: an identity that expires without mail fails its deployment', async (t) => {
  const { app, clock, principal } = await marketplaceSetup();
  right(await app.marketplace.deploy(principal, ID, { parameters: { ...params, ttl_hours: 1 } }));
  clock.advance(2 * 3_600_000);
  await app.maintenance.tick('m');
  await app.marketplace.outcomesTick('worker-1');
  const tpl = right(await app.marketplace.get(ID));
  t.is(tpl.success_rate, Math.round(((3 * 0.97) / 4) * 1000) / 1000);
  t.is(tpl.estimated_duration_seconds, 10);
});

test('outcomes: two workers ticking together count each outcome once', async (t) => {
  const { app, principal, deliver } = await marketplaceSetup();
  const deps = await Promise.all([1, 2, 3].map(() => app.marketplace.deploy(principal, ID, { parameters: params })));
  for (const d of deps) await deliver(right(d).identity.email, codeMail(right(d).identity.email));
  await Promise.all([app.marketplace.outcomesTick('a'), app.marketplace.outcomesTick('b')]);
  await app.marketplace.outcomesTick('a');
  const stored = (await app.deps.store.get('templates', ID))!;
  t.is(stored.outcomes_succeeded, 3);
  t.is(stored.outcomes_failed, 0);
});
