import { iso } from '../domain/time.js';
import type { RangeCondition } from '../ports/document-store.js';

/**
 * The range of a timestamp field up to `now`, for the jobs that look for what is due (expiry,
 * idempotency purge, webhook attempts). Both bounds are strings: stores order values of different
 * types (null, booleans, numbers, strings), so an upper bound alone also admits every number, and
 * SQLite then walks the whole index instead of the part before `now` (18 ms against 0.11 ms at
 * 20,000 keys).
 */
export const dueBy = (field: string, now: Date): RangeCondition => ({ field, gte: '', lte: iso(now) });
