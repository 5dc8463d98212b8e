import type { CoreDeps } from '../deps.js';
import type { EventRecord } from '../domain/event.js';
import { iso } from '../domain/time.js';
import { secretMasker } from '../extraction/secret-masker.js';
import type { MessageRecord } from '../mail/message-record.js';
import { secretsOfMessage } from '../mail/message-secrets.js';
import { C } from '../store/collections.js';
import { keep, updateWithRetry, write } from '../store/compare-and-set.js';

/** Marks a store whose `email.received` events are all masked by today's masker (a record in `counters`). */
const MARK = 'migration:event-masks:1';
const PAGE = 500;

/** The event's data with its sender and subject masked again; the same object when nothing changes. */
const remasked = (event: EventRecord, mask: (text: string) => string): EventRecord => {
  const { from, subject } = event.data;
  const nextFrom = typeof from === 'string' ? mask(from) : from;
  const nextSubject = typeof subject === 'string' ? mask(subject) : subject;
  return nextFrom === from && nextSubject === subject ? event : { ...event, data: { ...event.data, from: nextFrom, subject: nextSubject } };
};

/**
 * Event data is masked when it is recorded, so an `email.received` event recorded before the
 * masker read a code by its letters and digits (ADR 0062) may hold a dashed or grouped code in
 * clear, and the events API, exports and the stream would go on serving it. Once per store, at
 * start-up, each such event is masked again with its message's secrets, page by page in log
 * order. A write is a compare-and-set of the masked data, so hosts starting together write
 * nothing twice; the mark is set only when every page is done. An event whose message is gone
 * (purged) is left as it is: its identity has expired and its events go with it.
 */
export const migrateEventMasks = async (deps: CoreDeps): Promise<void> => {
  if ((await deps.store.get(C.counters, MARK)) !== undefined) return;
  for (let offset = 0; ; offset += PAGE) {
    const page = (await deps.store.find(C.events, { sort: { field: 'position', direction: 'asc' }, limit: PAGE, offset })) as unknown as EventRecord[];
    for (const event of page) {
      if (event.type !== 'email.received' || typeof event.data.message_id !== 'string') continue;
      const message = (await deps.store.get(C.messages, event.data.message_id)) as MessageRecord | undefined;
      if (message === undefined) continue;
      const mask = secretMasker(await secretsOfMessage(deps, message));
      if (remasked(event, mask) === event) continue;
      await updateWithRetry<EventRecord, undefined>(deps.store, C.events, event.id, (current) => {
        const next = remasked(current, mask);
        return next === current ? keep(undefined) : write(next, undefined);
      });
    }
    if (page.length < PAGE) break;
  }
  await deps.store.insert(C.counters, { id: MARK, done_at: iso(deps.clock.now()) });
};
