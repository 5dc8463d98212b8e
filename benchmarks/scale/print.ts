/** The printed summary: three tables, the ratios, and the soundness checks. */
import type { ResultsDocument } from './report.js';
import { OPERATIONS } from './store-bench.js';

type Row = readonly string[];

/** Fixed-width columns: the first `left` left-aligned, the rest right-aligned. */
const table = (rows: readonly Row[], left: number): string => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n');
};

const num = (value: number | null | undefined, digits = 0): string => (value === null || value === undefined ? '-' : value.toFixed(digits));

const creationRows = (doc: ResultsDocument): Row[] =>
  [doc.identityCreation.oneHost, doc.identityCreation.twoHosts].flatMap((run) => {
    const hostRows = run.perHost.map((h) => [
      String(run.hosts), h.host, String(h.connections), num(h.requestsPerSec), num(h.latencyMs.p50, 1), num(h.latencyMs.p99, 1),
      String(h.ok2xx), String(h.non2xx), String(h.errors),
    ]);
    const total = ['', 'all hosts', String(run.perHost.reduce((n, h) => n + h.connections, 0)), num(run.requestsPerSec),
      num(run.latencyMs.p50, 1), num(run.latencyMs.p99, 1), String(run.perHost.reduce((n, h) => n + h.ok2xx, 0)), String(run.non2xx), String(run.errors)];
    return run.hosts > 1 ? [...hostRows.map((row, i) => (i === 0 ? row : ['', ...row.slice(1)])), total] : hostRows;
  });

const ingestRows = (doc: ResultsDocument): Row[] =>
  [doc.mailIngest.oneHost, doc.mailIngest.twoHosts].flatMap((run) => {
    const hostRows = run.perHost.map((h) => [String(run.hosts), h.host, String(h.messages), num(h.wallS, 1), num(h.messagesPerSec), `${h.stored}/${h.messages}`]);
    const total = ['', 'all hosts', String(run.messages), num(run.wallS, 1), num(run.messagesPerSec), `${run.stored}/${run.messages}`];
    return run.hosts > 1 ? [...hostRows.map((row, i) => (i === 0 ? row : ['', ...row.slice(1)])), total] : hostRows;
  });

const printStores = (doc: ResultsDocument): void => {
  const stores = doc.store.stores;
  const measured = stores.flatMap((s) => (s.status === 'measured' ? [s] : []));
  const mongo = doc.store.mongodbOverMemory === 'skipped' ? undefined : doc.store.mongodbOverMemory;
  const header = ['operation', 'iterations', ...measured.map((s) => `${s.name} ops/s`), 'sqlite/memory', ...(mongo === undefined ? [] : ['mongodb/memory'])];
  const rows = OPERATIONS.map((op) => [
    op, String(doc.settings.storeIterations[op]), ...measured.map((s) => num(s.operations[op].opsPerSec)),
    num(doc.store.sqliteOverMemory[op], 3), ...(mongo === undefined ? [] : [num(mongo[op], 3)]),
  ]);
  console.log(table([header, ...rows], 1));
  for (const s of stores) {
    if (s.status === 'skipped') console.log(`${s.name}: skipped: ${s.reason}`);
    if (s.status === 'failed') console.log(`${s.name}: FAILED: ${s.error}`);
  }
};

export const printReport = (doc: ResultsDocument): void => {
  const m = doc.machine;
  const s = doc.settings;
  console.log(`\nscale benchmark: 1 vs 2 host processes over one SQLite file, 127.0.0.1 only`);
  console.log(`machine: ${m.cpus} cpus (${m.cpuModel}), ${m.memoryGiB} GiB, node ${m.node}, ${m.platform}, load ${m.loadAverageAtStart['1m']} at start\n`);
  console.log(`identity creation: POST /v1/identities, ${s.creation.connections} connections in all, ${s.creation.warmupS} s warm-up + ${s.creation.durationS} s`);
  console.log(table([['hosts', 'host', 'conns', 'req/s', 'p50 ms', 'p99 ms', '2xx', 'non-2xx', 'errors'], ...creationRows(doc)], 2));
  console.log(`ratio two/one: ${num(doc.identityCreation.ratioTwoOverOne, 2)}\n`);
  console.log(`mail ingest: smtp-source, ${s.ingest.messages} messages of ${s.ingest.sizeBytes} bytes, ${s.ingest.sessionsPerHost} sessions per host, reused connections (+${s.ingest.warmupMessages} warm-up)`);
  console.log(table([['hosts', 'host', 'messages', 'wall s', 'msg/s', 'stored'], ...ingestRows(doc)], 2));
  console.log(`ratio two/one: ${num(doc.mailIngest.ratioTwoOverOne, 2)}\n`);
  console.log('store micro-benchmark: one operation at a time, identity documents, core index specs');
  printStores(doc);
  console.log('\nchecks:');
  for (const check of doc.checks) console.log(`  ${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}: ${check.detail}`);
};
