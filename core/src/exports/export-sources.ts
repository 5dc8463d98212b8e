import type { EventRecord } from '../domain/event.js';
import { toPublicEvent } from '../domain/event.js';
import type { IdentityRecord } from '../domain/identity.js';
import { isDue, toIdentity } from '../domain/identity.js';
import type { ExtractionRecord } from '../mail/extraction-record.js';
import { toPublicExtraction } from '../mail/extraction-record.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import type { ExportType } from './export-record.js';

/**
 * What an export of one type reads and writes: the collection, the time field its date range
 * and order apply to (each has an index `org_id, project_id, <field>`, see collections.ts), the
 * CSV columns, and the row itself. A row is exactly what the API shows a caller without
 * `secrets:read`: the same public views, so no raw secret can reach a file.
 */
export interface ExportSource {
  readonly collection: string;
  readonly timeField: string;
  readonly columns: readonly string[];
  readonly row: (doc: StoredDocument, now: Date) => object;
}

/** An identity whose TTL has run out reads as `expired`, as the API shows it before the expiry job runs. */
const identityRow = (doc: StoredDocument, now: Date) => {
  const record = doc as unknown as IdentityRecord;
  const identity = toIdentity(record);
  return isDue(record, now) ? { ...identity, status: 'expired' as const } : identity;
};

export const EXPORT_SOURCES: Readonly<Record<ExportType, ExportSource>> = {
  identities: {
    collection: C.identities,
    timeField: 'created_at',
    columns: ['id', 'email', 'label', 'status', 'created_at', 'expires_at', 'parent_id', 'metadata'],
    row: identityRow,
  },
  events: {
    collection: C.events,
    timeField: 'occurred_at',
    columns: ['id', 'type', 'identity_id', 'occurred_at', 'data'],
    // Event data is masked when recorded (a code in a subject never reaches the log in clear).
    row: (doc) => toPublicEvent(doc as unknown as EventRecord),
  },
  extractions: {
    collection: C.extractions,
    timeField: 'extracted_at',
    columns: [
      'id', 'identity_id', 'message_id', 'source_event_id', 'extracted_at', 'type', 'link_kind',
      'has_secret', 'redacted_value', 'confidence', 'candidates',
    ],
    // Redacted values only: the stored record's raw `value` and candidates' values stay out.
    row: (doc) => toPublicExtraction(doc as unknown as ExtractionRecord),
  },
};
