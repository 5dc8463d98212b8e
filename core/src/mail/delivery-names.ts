import type { CoreDeps } from '../deps.js';
import { derivedId } from './message-record.js';

/**
 * What a delivery names the documents it brings beside its message record. The message record
 * itself is always named by {@link derivedId} of the message, which is how a redelivery is
 * recognised; these names only have to be found again from that record.
 */
export interface DeliveryNames {
  /** What the raw slices are named after (`<raw>:<n>`); the message id when absent. */
  readonly raw?: string;
  readonly extraction: string;
  readonly receivedEvent: string;
  readonly extractedEvent: string;
}

/**
 * Names derived from the message id: a redelivery names the same documents, so it completes
 * whatever a crash left half-written. For a message stored on its own before it is recorded
 * (a store without `transact`, or a step it refused).
 */
export const derivedNames = (messageId: string): DeliveryNames => ({
  extraction: derivedId('ext', messageId),
  receivedEvent: derivedId('evt', messageId, 'email.received'),
  extractedEvent: derivedId('evt', messageId, 'extraction.completed'),
});

/**
 * New time-ordered ids (ADR 0014), for a message stored in the same atomic step that records it:
 * that step writes all of its documents or none, so nothing is ever left for a redelivery to
 * complete, and a redelivery finds the stored record, which names its slices and extraction.
 * Each id lands at the end of its primary-key index instead of in a random leaf (ADR 0029).
 */
export const orderedNames = (deps: CoreDeps): DeliveryNames => ({
  raw: deps.ids.next('raw'),
  extraction: deps.ids.next('ext'),
  receivedEvent: deps.ids.next('evt'),
  extractedEvent: deps.ids.next('evt'),
});
