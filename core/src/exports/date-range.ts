import * as E from 'fp-ts/lib/Either.js';
import type { DomainError, Issue } from '../domain/errors.js';
import { dateRangeTooLarge, invalidRequest } from '../domain/errors.js';
import { iso } from '../domain/time.js';
import type { DateRange } from './export-record.js';

const DAY_MS = 86_400_000;

/** The spec's limit: an export covers at most 90 days; also the default range's length. */
export const MAX_EXPORT_DAYS = 90;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An ISO 8601 date (`2026-03-01`) or date-time with a zone (`Z` or `±hh:mm`), as an instant. A
 * date alone is the day's first millisecond as `start` and its last as `end`, so a range of
 * dates includes its last day. A date-time without a zone is refused rather than read in the
 * server's zone. Days that do not exist (`2026-02-30`) are refused, not rolled over.
 */
const parseBound = (text: string, bound: 'start' | 'end'): Date | undefined => {
  const date = DATE_ONLY.exec(text) ?? DATE_TIME.exec(text);
  if (date === null) return undefined;
  const [, y, m, d] = date;
  const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(m) - 1 || day.getUTCDate() !== Number(d)) return undefined;
  if (DATE_ONLY.test(text)) return bound === 'start' ? day : new Date(day.getTime() + DAY_MS - 1);
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
};

const FORMAT_HINT = 'must be an ISO 8601 date (2026-03-01) or date-time with a zone (2026-03-01T12:00:00Z)';

/**
 * The export's date range, both bounds inclusive, as ISO timestamps: the given one, or by
 * default the 90 days up to `now`. Refused: unparseable bounds and an end before the start
 * (`400 invalid_request`, naming the field), and more than 90 days (`400 date_range_too_large`).
 */
export const exportDateRange = (input: { readonly start: string; readonly end: string } | undefined, now: Date): E.Either<DomainError, DateRange> => {
  if (input === undefined) return E.right({ start: iso(new Date(now.getTime() - MAX_EXPORT_DAYS * DAY_MS)), end: iso(now) });
  const start = parseBound(input.start, 'start');
  const end = parseBound(input.end, 'end');
  const issues: Issue[] = [
    ...(start === undefined ? [{ path: 'body.date_range.start', message: FORMAT_HINT }] : []),
    ...(end === undefined ? [{ path: 'body.date_range.end', message: FORMAT_HINT }] : []),
  ];
  if (start === undefined || end === undefined) return E.left(invalidRequest('The date range is invalid.', issues));
  if (end.getTime() < start.getTime()) {
    return E.left(invalidRequest('The date range ends before it starts.', [{ path: 'body.date_range.end', message: 'must not be before start' }]));
  }
  const days = (end.getTime() - start.getTime()) / DAY_MS;
  if (days > MAX_EXPORT_DAYS) return E.left(dateRangeTooLarge(Math.ceil(days * 100) / 100, MAX_EXPORT_DAYS));
  return E.right({ start: iso(start), end: iso(end) });
};
