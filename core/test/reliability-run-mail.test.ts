import test from 'ava';
import type { CoreDeps } from '../src/deps.js';
import type { EventRecord } from '../src/domain/event.js';
import type { DocumentStore } from '../src/ports/document-store.js';
import { recordRunMail } from '../src/reliability/run-mail.js';
import type { RunRecord } from '../src/reliability/run-record.js';
import { C, COLLECTIONS } from '../src/store/collections.js';
import { createMemoryDocumentStore, FakeClock } from '../src/index.js';

const AT = '2026-03-01T12:00:00.000Z';

const run = (id: string, identity: string): RunRecord => ({
  id, org_id: 'org_a', project_id: 'proj_a', flow_type: 'password_reset', status: 'pending', identity_id: identity,
  email: `${identity}@inbox.test`, target_url: 'https://app.example.com/reset', timeout_seconds: 30, request: null,
  created_at: AT, updated_at: AT, open: true, due_at: '2026-03-01T12:00:30.000Z', lease_owner: null,
  trigger_started_at: AT, triggered_at: AT, target_status: 200, deadline_at: '2026-03-01T12:00:30.000Z',
  email_received_at: null, message_id: null, extraction_id: null, completed_at: null, failure_reason: null, result: null,
} as RunRecord);

const mail = (n: number, identity: string): EventRecord => ({
  id: `evt_${n}`, type: 'email.received', org_id: 'org_a', project_id: 'proj_a', identity_id: identity,
  occurred_at: `2026-03-01T12:00:0${n}.000Z`, data: { message_id: `msg_${n}` },
} as unknown as EventRecord);

const message = (n: number, identity: string) => ({ id: `msg_${n}`, identity_id: identity, received_at: `2026-03-01T12:00:0${n}.000Z`, extraction_id: null });

/** The memory store, counting the finds it answers. */
const counting = (store: DocumentStore) => {
  const finds: unknown[] = [];
  const wrapped: DocumentStore = Object.assign(Object.create(store) as DocumentStore, {
    find: (collection: string, query: Parameters<DocumentStore['find']>[1]) => {
      finds.push({ collection, query });
      return store.find(collection, query);
    },
  });
  return { store: wrapped, finds };
};

test('run mail: a relay batch reads its identities\' open runs once, and only an identity\'s first mail after the trigger decides its run', async (t) => {
  const memory = createMemoryDocumentStore();
  await memory.init(COLLECTIONS);
  await memory.insert(C.runs, run('run_1', 'idn_a'));
  for (const [n, identity] of [[1, 'idn_a'], [2, 'idn_a'], [3, 'idn_b'], [4, 'idn_c']] as const) await memory.insert(C.messages, message(n, identity));
  const { store, finds } = counting(memory);
  const deps = { store, clock: new FakeClock(AT) } as unknown as CoreDeps;

  const recorded = await recordRunMail(deps, [mail(1, 'idn_a'), mail(3, 'idn_b'), mail(2, 'idn_a'), mail(4, 'idn_c')]);

  t.is(recorded, 1);
  t.is(finds.length, 1, 'one read of open runs for the whole batch');
  const stored = (await memory.get(C.runs, 'run_1')) as unknown as RunRecord;
  t.like(stored, { status: 'failed', open: false, message_id: 'msg_1' });
  t.is(await recordRunMail(deps, [mail(2, 'idn_a')]), 0, 'a closed run takes no later mail');
});
