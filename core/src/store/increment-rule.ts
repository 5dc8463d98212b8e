import type { IncrementBounds } from '../ports/document-store.js';

/**
 * What `DocumentStore.increment` stores in place of `current`: the sum, clamped up to
 * `bounds.floor`; `'over_max'` when the sum would exceed `bounds.max` (nothing is written);
 * `'not_number'` when the field does not hold a number (the store throws). One rule for every
 * store that adds in JavaScript (memory, SQLite); MongoDB says the same in an update pipeline.
 */
export const incremented = (current: unknown, by: number, bounds: IncrementBounds): number | 'over_max' | 'not_number' => {
  if (typeof current !== 'number') return 'not_number';
  const sum = current + by;
  if (bounds.max !== undefined && sum > bounds.max) return 'over_max';
  return bounds.floor !== undefined && sum < bounds.floor ? bounds.floor : sum;
};
