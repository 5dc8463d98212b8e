import type { DocumentStore, Filter, Scalar, StoredDocument } from '../ports/document-store.js';

/** What to read: the documents matching `where` with `field` in `[start, end]`, oldest first. */
export interface PagedRead {
  readonly collection: string;
  readonly where: Filter;
  readonly field: string;
  readonly start: string;
  readonly end: string;
  readonly pageSize: number;
}

/**
 * The matching documents, in pages of at most `pageSize`, ordered by `field` then `id`, with
 * keyset paging: each query starts after the last document seen instead of at an offset, so
 * every page costs the same however deep the export is, and only one page is held at a time.
 *
 * The store's range takes one field, so the key `(field, id)` is walked in two steps: after a
 * full page, the documents with the same `field` value as its last one and a greater id (ties:
 * events of one millisecond), then those with a greater `field` value. A page shorter than
 * `pageSize` ends its step; many ties cost more queries, never a wrong or repeated row.
 */
export async function* readPages(store: DocumentStore, read: PagedRead): AsyncGenerator<readonly StoredDocument[]> {
  const { collection, where, field, pageSize } = read;
  const asc = { direction: 'asc' } as const;
  let page = await store.find(collection, { where, range: { field, gte: read.start, lte: read.end }, sort: { field, ...asc }, limit: pageSize });
  while (page.length > 0) {
    yield page;
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    const key = last[field] as Scalar;
    let afterId = last.id;
    for (;;) {
      const ties = await store.find(collection, { where: { ...where, [field]: key }, range: { field: 'id', gt: afterId }, sort: { field: 'id', ...asc }, limit: pageSize });
      if (ties.length > 0) yield ties;
      if (ties.length < pageSize) break;
      afterId = ties[ties.length - 1]!.id;
    }
    page = await store.find(collection, { where, range: { field, gt: key, lte: read.end }, sort: { field, ...asc }, limit: pageSize });
  }
}
