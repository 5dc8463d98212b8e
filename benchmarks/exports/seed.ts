/**
 * Fills a SQLite file with `rows` events through the store's own `insertAll`, in batches, so the
 * rows are laid out exactly as the store writes them (indexed fields apart from the rest) and the
 * export's indexes exist before the first insert.
 */
import { COLLECTIONS, type EventRecord } from '@ephemail/core';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';
import { eventDoc } from './events.js';

const BATCH = 5000;

export const seed = async (path: string, rows: number): Promise<number> => {
  const began = performance.now();
  const store = createSqliteDocumentStore(openSqliteDatabase(path));
  await store.init(COLLECTIONS);
  for (let from = 0; from < rows; from += BATCH) {
    const batch: { collection: string; doc: EventRecord }[] = [];
    for (let i = from; i < Math.min(rows, from + BATCH); i += 1) batch.push({ collection: 'events', doc: eventDoc(i) });
    if ((await store.insertAll!(batch)) !== 'inserted') throw new Error(`seeding: batch at ${from} was refused`);
  }
  await store.close();
  return (performance.now() - began) / 1000;
};
