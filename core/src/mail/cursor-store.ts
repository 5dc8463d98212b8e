import type { CoreDeps } from '../deps.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import type { MailboxCursor, MailboxCursorStore } from './ports.js';

interface CursorRecord extends MailboxCursor {
  readonly id: string;
}

const same = (a: MailboxCursor, b: MailboxCursor): boolean => a.uidValidity === b.uidValidity && a.lastUid === b.lastUid;

/** IMAP cursors in the document store, one document per mailbox, moved by compare-and-set. */
export const createMailboxCursorStore = (deps: CoreDeps): MailboxCursorStore => ({
  load: async (mailboxKey) => {
    const doc = (await deps.store.get(C.mailboxCursors, mailboxKey)) as (CursorRecord & StoredDocument) | undefined;
    return doc === undefined ? undefined : { uidValidity: doc.uidValidity, lastUid: doc.lastUid };
  },
  save: async (mailboxKey, next, previous) => {
    const record: CursorRecord = { id: mailboxKey, uidValidity: next.uidValidity, lastUid: next.lastUid };
    const current = (await deps.store.get(C.mailboxCursors, mailboxKey)) as (CursorRecord & StoredDocument) | undefined;
    if (current === undefined) return previous === undefined && (await deps.store.insert(C.mailboxCursors, record)) === 'inserted';
    if (previous === undefined || !same(current, previous)) return false;
    return deps.store.replace(C.mailboxCursors, record, current.version);
  },
});
