import test from 'ava';
import { eventData, toPublicEvent, type EventRecord } from '../src/domain/event.js';
import { payloadOf } from '../src/webhooks/delivery-job.js';

const recordedBefore: EventRecord = {
  id: 'evt_1',
  type: 'identity.extended',
  identity_id: 'ident_1',
  seq: 2,
  org_id: 'org_1',
  project_id: 'proj_1',
  occurred_at: '2026-03-01T12:00:00.000Z',
  data: { additional_hours: 2, expires_at: '2026-03-01T14:00:00.000Z' },
};

test('event data: an event recorded before data named its identity names it when read, first', (t) => {
  t.deepEqual(Object.keys(toPublicEvent(recordedBefore).data), ['identity_id', 'additional_hours', 'expires_at']);
  t.is(toPublicEvent(recordedBefore).data.identity_id, 'ident_1');
  t.is(payloadOf(recordedBefore).data.identity_id, 'ident_1', 'a webhook delivery of a replayed old event too');
});

test('event data: the record decides which identity the data names', (t) => {
  const current = { ...recordedBefore, data: { identity_id: 'ident_1', reason: 'api' } };
  t.is(eventData(current), current.data, 'data that names it already is passed as it is');
  t.is(eventData({ ...recordedBefore, data: { identity_id: 'ident_other' } }).identity_id, 'ident_1');
});
