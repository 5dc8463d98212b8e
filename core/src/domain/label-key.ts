import type { RangeCondition } from '../ports/document-store.js';

/**
 * A label as label search compares it: Unicode compatibility form (NFKC), lower case, runs of
 * white space as one space, trimmed. Stored on each identity as `label_key`, so a search is an
 * indexed range instead of a scan (docs/api.md, "Label search").
 */
export const labelKey = (label: string): string => label.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The keys that start with `prefix`: from the prefix itself up to, not including, the prefix with
 * its last character moved one code point on. Strings compare by code point in every store (UTF-8
 * bytes in SQLite and MongoDB, and the same order in memory for a bound built this way), so the
 * range holds exactly the keys with that prefix.
 */
export const labelPrefixRange = (prefix: string): RangeCondition => {
  const chars = Array.from(prefix);
  const last = chars.pop()!.codePointAt(0)!;
  // Past the surrogate block the next code point is U+E000: a lone surrogate is no character.
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  return { field: 'label_key', gte: prefix, lt: chars.join('') + String.fromCodePoint(next) };
};
