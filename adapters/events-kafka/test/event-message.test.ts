import type { EventRecord } from '@ephemail/core';
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import { EVENT_SCHEMA_V1, parseEventMessage, toEventMessage } from '../src/index.js';

const event: EventRecord = {
  id: 'evt_1',
  type: 'identity.squashed',
  identity_id: 'ident_1',
  seq: 3,
  position: 42,
  org_id: 'org_a',
  project_id: 'proj_b',
  occurred_at: '2026-03-01T12:00:00.000Z',
  data: { reason: 'api' },
};

test('event message: a logged event becomes a message keyed by identity, with a v1 value and its id, type and tenant in headers', (t) => {
  const message = toEventMessage(event);
  t.is(message.key, 'ident_1');
  t.deepEqual(message.headers, { 'event-id': 'evt_1', 'event-type': 'identity.squashed', 'org-id': 'org_a', 'project-id': 'proj_b', schema: EVENT_SCHEMA_V1 });
  t.deepEqual(JSON.parse(message.value), {
    schema: 'ephemail.event.v1',
    id: 'evt_1',
    type: 'identity.squashed',
    identity_id: 'ident_1',
    org_id: 'org_a',
    project_id: 'proj_b',
    occurred_at: '2026-03-01T12:00:00.000Z',
    position: 42,
    data: { identity_id: 'ident_1', reason: 'api' },
  });
});

test('event message: an event without a log position is refused, since only logged events are published', (t) => {
  t.throws(() => toEventMessage({ ...event, position: undefined }), { message: /no log position/ });
});

const key = fc.string({ minLength: 1, maxLength: 30 }).filter((value) => value !== '__proto__');
const records = fc.record({
  id: key,
  type: key,
  identity_id: key,
  seq: fc.nat(),
  position: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  org_id: fc.string(),
  project_id: fc.string(),
  occurred_at: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString()),
  data: fc.dictionary(key, fc.jsonValue()),
});

test('event message: whatever the publisher writes, the consumer reads back as the same event', (t) => {
  fc.assert(
    fc.property(records, (record) => {
      const parsed = parseEventMessage(Buffer.from(toEventMessage(record).value, 'utf8'));
      const { seq: _seq, ...fields } = record;
      // The data names its identity, as the record does (eventData).
      const data = JSON.parse(JSON.stringify({ ...record.data, identity_id: record.identity_id }));
      return parsed.ok && isDeepStrictEqual(parsed.event, { schema: EVENT_SCHEMA_V1, ...fields, data });
    }),
  );
  t.pass();
});

test('event message: a value that is not a v1 event is refused with a reason', (t) => {
  const valid = JSON.parse(toEventMessage(event).value);
  const reasons = [
    null,
    'not json',
    JSON.stringify([]),
    JSON.stringify({ ...valid, schema: 'ephemail.event.v2' }),
    JSON.stringify({ ...valid, id: '' }),
    JSON.stringify({ ...valid, position: 0 }),
    JSON.stringify({ ...valid, occurred_at: 'yesterday' }),
    JSON.stringify({ ...valid, data: 'text' }),
  ].map((value) => {
    const parsed = parseEventMessage(value);
    return parsed.ok ? 'accepted' : parsed.reason;
  });
  t.deepEqual(reasons.slice(0, 2), ['the message has no value (a tombstone)', 'the value is not JSON']);
  t.true(reasons.slice(2).every((reason) => reason !== 'accepted'));
  t.regex(reasons[3]!, /^schema: /);
  t.regex(reasons[4]!, /^id: /);
  t.regex(reasons[5]!, /^position: /);
  t.regex(reasons[6]!, /^occurred_at: /);
  t.regex(reasons[7]!, /^data: /);
});

test('event message: fields added by a later writer within v1 do not stop an older reader', (t) => {
  const parsed = parseEventMessage(JSON.stringify({ ...JSON.parse(toEventMessage(event).value), region: 'eu' }));
  t.true(parsed.ok);
});
