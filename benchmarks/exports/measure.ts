/**
 * One measurement, in a process of its own so its peak RSS is its own:
 *   measure.ts <job|bare> <csv|json> <db path> <out dir> <range end ISO>
 * `job` runs the real export (core's leased job, keyset pages from the SQLite store, the fs export
 * storage, csv-stringify); `bare` runs the hand-written loop. Prints one JSON line: rows, seconds,
 * RSS before and at its peak, the file's size and SHA-256.
 */
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { createEphemail } from '@ephemail/core';
import { createCsvStringifyEncoder } from '@ephemail/export-csv';
import { createFsExportStorage } from '@ephemail/export-fs';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';
import { bareExport } from './bare-loop.js';
import { ORG, PROJECT, START } from './events.js';

const [mode, format, dbPath, outDir, end] = process.argv.slice(2) as ['job' | 'bare', 'csv' | 'json', string, string, string];
const range = { start: new Date(START).toISOString(), end };

const sha256 = async (path: string): Promise<string> => {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

const runJob = async (): Promise<{ rows: number; seconds: number; file: string }> => {
  const app = createEphemail({
    store: createSqliteDocumentStore(openSqliteDatabase(dbPath)),
    inboxDomain: 'bench.test',
    exports: { storage: createFsExportStorage(outDir), csv: createCsvStringifyEncoder() },
  });
  await app.init();
  const created = await app.auth.createApiKey({ orgId: ORG, projectIds: [PROJECT], scopes: ['exports:read', 'exports:write'], plan: 'enterprise' });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  const principal = await app.auth.authenticate({ authorization: `Bearer ${created.right.key}`, orgId: ORG, projectId: PROJECT });
  if (E.isLeft(principal)) throw new Error(principal.left._tag);
  const began = performance.now();
  const exported = await app.exports.create(principal.right, { type: 'events', format, date_range: range });
  if (E.isLeft(exported)) throw new Error(exported.left._tag);
  const report = await app.exports.jobsTick('bench');
  const seconds = (performance.now() - began) / 1000;
  const view = await app.exports.get(principal.right, exported.right.id);
  if (report.completed !== 1 || E.isLeft(view)) throw new Error(`the export did not complete: ${JSON.stringify(report)}`);
  await app.close();
  return { rows: view.right.row_count!, seconds, file: join(outDir, `${exported.right.id}-1.${format}`) };
};

const runBare = (): { rows: number; seconds: number; file: string } => {
  const file = join(outDir, `bare.${format}`);
  const began = performance.now();
  const rows = bareExport(dbPath, file, format, range);
  return { rows, seconds: (performance.now() - began) / 1000, file };
};

mkdirSync(outDir, { recursive: true });
const rssBefore = process.memoryUsage.rss();
const result = mode === 'job' ? await runJob() : runBare();
const rssPeak = process.resourceUsage().maxRSS * 1024;
const { size } = await import('node:fs/promises').then((fs) => fs.stat(result.file));
console.log(JSON.stringify({ mode, format, rows: result.rows, seconds: result.seconds, rssBefore, rssPeak, bytes: size, sha256: await sha256(result.file) }));
