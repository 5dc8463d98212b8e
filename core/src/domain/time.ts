/** ISO 8601 UTC with milliseconds and a `Z` suffix: the only timestamp format stored or served. */
export const iso = (date: Date): string => date.toISOString();

export const HOUR_MS = 3_600_000;

/** `instant` moved by `ms` milliseconds, as an ISO string. */
export const isoPlus = (instant: Date | string, ms: number): string =>
  new Date(new Date(instant).getTime() + ms).toISOString();
