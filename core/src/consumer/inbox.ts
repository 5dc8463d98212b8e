import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import { eventData, type EventRecord } from '../domain/event.js';
import { C } from '../store/collections.js';

/** One event of a consumer's live inbox: its log position (the stream's event id), name and data. */
export interface InboxEvent {
  readonly position: number;
  readonly name: 'inbound.received' | 'extraction.completed';
  readonly data: Readonly<Record<string, unknown>>;
}

const NAMES: Readonly<Record<string, InboxEvent['name']>> = { 'email.received': 'inbound.received', 'extraction.completed': 'extraction.completed' };

/** What a stream shows of an event: mail as its event has it (masked), extraction redacted. */
const toInboxEvent = (event: EventRecord): InboxEvent | undefined => {
  const name = NAMES[event.type];
  if (name === undefined || event.position === undefined) return undefined;
  const data = eventData(event);
  if (name === 'inbound.received') return { position: event.position, name, data };
  const extraction = (data.extraction ?? {}) as Record<string, unknown>;
  return {
    position: event.position,
    name,
    data: { identity_id: event.identity_id, message_id: data.message_id, type: extraction.type, redacted_value: extraction.redacted_value, confidence: extraction.confidence },
  };
};

/**
 * The consumer's mail and extractions logged after `position`, in log order, read from the store's
 * event log (so a stream on any host sees mail any host stored). Walks the log by position and
 * keeps the events of the consumer's organization.
 */
export const inboxAfter = async (deps: CoreDeps, principal: Principal, position: number, limit = 200): Promise<{ events: InboxEvent[]; position: number }> => {
  const docs = (await deps.store.find(C.events, {
    where: { org_id: principal.orgId },
    range: { field: 'position', gt: position, lte: Number.MAX_SAFE_INTEGER },
    sort: { field: 'position', direction: 'asc' },
    limit,
  })) as unknown as EventRecord[];
  const events = docs.map(toInboxEvent).filter((e): e is InboxEvent => e !== undefined);
  return { events, position: docs.at(-1)?.position ?? position };
};

/** The newest position of the log: where a stream without `Last-Event-ID` starts. */
export const logHead = async (deps: CoreDeps): Promise<number> => {
  const [last] = (await deps.store.find(C.events, { range: { field: 'position', gt: 0, lte: Number.MAX_SAFE_INTEGER }, sort: { field: 'position', direction: 'desc' }, limit: 1 })) as unknown as EventRecord[];
  return last?.position ?? 0;
};
