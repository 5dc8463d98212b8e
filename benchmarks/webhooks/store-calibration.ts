import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLECTIONS } from '@ephemail/core';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';

/**
 * What one single-document write costs on this machine's disk (SQLite file, WAL): a delivery job
 * takes two when the relay hands it straight to a pool (inserted claimed, then the outcome) and
 * three otherwise (insert, claim, record), so this bounds deliveries per second whatever the
 * pipeline does around them. Measured on a fresh file with job-shaped documents.
 */
export const calibrateStoreWrites = async (writes = 3000): Promise<{ writeMs: number; jobsPerSecCeiling: number }> => {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-calibrate-'));
  const store = createSqliteDocumentStore(openSqliteDatabase(join(dir, 'calibrate.db')));
  try {
    await store.init(COLLECTIONS);
    const now = new Date().toISOString();
    const job = { webhook_id: 'wh_calibrate', status: 'pending', next_attempt_at: now, created_at: now, payload: { id: 'evt_calibrate', data: { email: 'x@bench.test' } } };
    const start = performance.now();
    for (let i = 0; i < writes / 2; i += 1) await store.insert('webhook_deliveries', { id: `dlv_${i}`, ...job });
    for (let i = 0; i < writes / 2; i += 1) await store.replace('webhook_deliveries', { id: `dlv_${i}`, ...job, status: 'delivering' }, 1);
    const writeMs = (performance.now() - start) / writes;
    return { writeMs: Number(writeMs.toFixed(3)), jobsPerSecCeiling: Math.round(1000 / (2 * writeMs)) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
