import test from 'ava';
import type { EventRecord } from '../../src/index.js';
import { createEphemail } from '../../src/index.js';
import { C } from '../../src/store/collections.js';
import { scriptedService } from './scripted-mail.js';

test('event masks: an email.received event recorded with a dashed code in clear is masked at the next start-up, once', async (t) => {
  const { app, deliver, newIdentity, clock } = await scriptedService();
  const store = app.deps.store;
  const identity = await newIdentity();
  await deliver(identity.email, { type: 'otp', value: 'QX7K-92MD', confidence: 0.95 });
  const events = (await store.find(C.events, { where: { identity_id: identity.id } })) as unknown as (EventRecord & { version: number })[];
  const received = events.find((e) => e.type === 'email.received')!;
  // What an older version recorded: its masker never matched a code with a dash.
  const leaked = { ...received, data: { ...received.data, subject: 'Your sign-in code is QX7K-92MD', from: 'QX7K-92MD@app.example.com' } };
  const { version, ...unversioned } = leaked;
  t.true(await store.replace(C.events, unversioned, version));
  await store.remove(C.counters, 'migration:event-masks:1');

  const next = createEphemail({ store, inboxDomain: 'inbox.test', clock });
  await next.init();
  const after = (await store.get(C.events, received.id)) as unknown as EventRecord & { version: number };
  t.is(after.data.subject, 'Your sign-in code is Q•••D');
  t.is(after.data.from, 'Q•••D@app.example.com');
  await createEphemail({ store, inboxDomain: 'inbox.test', clock }).init();
  t.is(((await store.get(C.events, received.id)) as unknown as { version: number }).version, after.version, 'a second start writes nothing');
});
