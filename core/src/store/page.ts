import type { DocumentStore, Filter, RangeCondition, StoredDocument } from '../ports/document-store.js';

/** A page of a list: `{items, total, limit, offset}`, every list of the API answers this shape. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/**
 * One page of a collection, newest first by `newestBy`, with the total count of what matches: the
 * find and the count in one round trip. `toItem` turns each stored document into the list's item.
 */
export const findPage = async <T>(
  store: DocumentStore,
  collection: string,
  query: { readonly where: Filter; readonly range?: RangeCondition; readonly newestBy: string },
  page: { readonly limit: number; readonly offset: number },
  toItem: (doc: StoredDocument) => T | Promise<T>,
): Promise<Page<T>> => {
  const { where, range, newestBy } = query;
  const [docs, total] = await Promise.all([
    store.find(collection, { where, ...(range === undefined ? {} : { range }), sort: { field: newestBy, direction: 'desc' }, limit: page.limit, offset: page.offset }),
    store.count(collection, { where, ...(range === undefined ? {} : { range }) }),
  ]);
  return { items: await Promise.all(docs.map(toItem)), total, limit: page.limit, offset: page.offset };
};
