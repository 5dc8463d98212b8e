import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { extract } from '../../src/index.js';
import { message } from '../extraction/helpers.js';
import { right, tagOf } from '../support.js';
import { marketplaceSetup } from './support.js';

const STORE = 'tmpl_store_signup_code_v1';
const storeParams = { service_name: 'Northwind Store', sender_domain: 'shop.example.com', code_length: 5 };

/** A store's sign-up mail whose support PIN looks more like a code than the code does. */
const decoyMail = () =>
  message({
    envelopeFrom: 'bounce@shop.example.com',
    from: { address: 'no-reply@shop.example.com', name: 'Northwind Store' },
    subject: 'Welcome to Northwind Store',
    text: 'Welcome! Your order 582931 is confirmed.\nTo finish creating your account, enter this verification code: 44172\nSupport PIN: 918273',
  });

test('deploy: creates an identity and answers the spec deployment with the rendered extraction_config', async (t) => {
  const { app, principal } = await marketplaceSetup();
  const dep = right(await app.marketplace.deploy(principal, STORE, { parameters: storeParams }));
  t.regex(dep.deployment_id, /^dep_/);
  t.is(dep.template_id, STORE);
  t.is(dep.status, 'active');
  t.is(dep.identity.status, 'provisioned');
  t.regex(dep.identity.email, /@inbox\.test$/);
  t.is(dep.extraction_config.sender_pattern, '[@.]shop\\.example\\.com$');
  t.is(dep.extraction_config.subject_pattern, 'Northwind Store');
  t.is(dep.extraction_config.code_pattern, '\\b(\\d{5})\\b');
  t.is(dep.estimated_duration_seconds, 20);
  const identity = right(await app.identities.get(principal, dep.identity.id));
  t.deepEqual(identity.metadata, { template_id: STORE, deployment_id: dep.deployment_id });
  t.is(right(await app.marketplace.get(STORE)).deploy_count, 1);
});

test('deploy: the template config picks the code where the generic engine picks a decoy', async (t) => {
  const { app, principal, deliver } = await marketplaceSetup();
  const mail = decoyMail();
  t.is(extract(mail).top?.value, '918273', 'the generic engine takes the support PIN');
  const dep = right(await app.marketplace.deploy(principal, STORE, { parameters: storeParams }));
  const plain = right(await app.identities.create(principal, { label: 'plain' }));
  const mailTo = (to: string) => ({ ...mail, to: [{ address: to, name: '' }] });
  await deliver(dep.identity.email, mailTo(dep.identity.email));
  await deliver(plain.email, mailTo(plain.email));
  // Read redacted (the principal holds no secrets:read): 44172 is the only code of the mail shown as 4•••2.
  const shaped = right(await app.extractions.latest(principal, dep.identity.id, { waitSeconds: 0 }));
  t.is(shaped.redacted_value, '4•••2');
  t.true(shaped.confidence > 0.9);
  const generic = right(await app.extractions.latest(principal, plain.id, { waitSeconds: 0 }));
  t.is(generic.redacted_value, '9•••3');
});

test('deploy: mail from another sender or with another subject is stored but not extracted from', async (t) => {
  const { app, principal, deliver } = await marketplaceSetup();
  const dep = right(await app.marketplace.deploy(principal, STORE, { parameters: storeParams }));
  const to = [{ address: dep.identity.email, name: '' }];
  const outcomes = [
    await deliver(dep.identity.email, { ...decoyMail(), to, envelopeFrom: 'x@evil.example.net', from: { address: 'no-reply@evil.example.net', name: '' } }),
    await deliver(dep.identity.email, { ...decoyMail(), to, subject: 'Weekly deals' }),
  ];
  t.true(outcomes.flat().every((o) => o.kind === 'stored'));
  const page = right(await app.messages.list(principal, dep.identity.id, { limit: 10, offset: 0 }));
  t.is(page.total, 2);
  t.is(tagOf(await app.extractions.latest(principal, dep.identity.id, { waitSeconds: 0 })), 'ExtractionNotFound');
});

test('deploy: parameters are checked, naming each one at fault', async (t) => {
  const { app, principal } = await marketplaceSetup();
  const refused = await app.marketplace.deploy(principal, STORE, { parameters: { sender_domain: 'not a host', code_length: '5', colour: 'red' } });
  t.true(E.isLeft(refused));
  if (E.isRight(refused) || refused.left._tag !== 'InvalidParameters') return t.fail();
  const byPath = Object.fromEntries(refused.left.issues.map((i) => [i.path, i.message]));
  t.regex(byPath['body.parameters.colour']!, /unknown parameter/);
  t.regex(byPath['body.parameters.service_name']!, /required string is missing/);
  t.regex(byPath['body.parameters.sender_domain']!, /DNS name/);
  t.regex(byPath['body.parameters.code_length']!, /must be an integer/);
  const outOfRange = await app.marketplace.deploy(principal, STORE, { parameters: { ...storeParams, code_length: 40 } });
  t.is(tagOf(outOfRange), 'InvalidParameters');
});

test('deploy: pattern characters in a parameter are matched literally', async (t) => {
  const { app, principal } = await marketplaceSetup();
  const dep = right(await app.marketplace.deploy(principal, STORE, { parameters: { ...storeParams, service_name: 'A+B (Shop).*' } }));
  t.is(dep.extraction_config.subject_pattern, 'A\\+B \\(Shop\\)\\.\\*');
});

test('deploy: an unknown template is 404, a deprecated version is 410 naming its successor', async (t) => {
  const { app, principal } = await marketplaceSetup();
  t.is(tagOf(await app.marketplace.deploy(principal, 'tmpl_nothing_v1', { parameters: {} })), 'TemplateNotFound');
  const old = await app.marketplace.deploy(principal, 'tmpl_signup_link_v1', { parameters: { sender_domain: 'app.example.com' } });
  t.true(E.isLeft(old) && old.left._tag === 'TemplateDeprecated' && old.left.replacedBy === 'tmpl_signup_link_v2');
});

test('deploy: the plan quota applies, and a refused deploy counts nothing', async (t) => {
  const { app, principal } = await marketplaceSetup({ plan: 'starter' });
  const limit = app.deps.config.plans.starter.identities;
  for (let i = 0; i < limit; i += 1) right(await app.identities.create(principal, { label: `i${i}` }));
  t.is(tagOf(await app.marketplace.deploy(principal, STORE, { parameters: storeParams })), 'QuotaExceeded');
  t.is(right(await app.marketplace.get(STORE)).deploy_count, 0);
});

test('deploy: ttl_hours sets the identity lifetime', async (t) => {
  const { app, principal, clock } = await marketplaceSetup();
  const dep = right(await app.marketplace.deploy(principal, STORE, { parameters: { ...storeParams, ttl_hours: 5 } }));
  t.is(Date.parse(dep.identity.expires_at) - clock.now().getTime(), 5 * 3_600_000);
});
