/**
 * The baseline: what a hand-written export of the same rows costs with nothing in between. One
 * better-sqlite3 statement walks the table by primary key (the benchmark's ids ascend with time,
 * so this is the export's order), each row's JSON is parsed into the same public event, written
 * in the same format (same CSV quoting and formula guard, same JSON array) and flushed with plain
 * synchronous writes every 1,000 rows, then fsync'd as the export storage does.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

const COLUMNS = ['id', 'type', 'identity_id', 'occurred_at', 'data'] as const;
const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

const cell = (value: string): string => {
  const guarded = FORMULA.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
};

interface Row {
  readonly id: string;
  readonly body: string;
  readonly unindexed: string;
}

export const bareExport = (dbPath: string, outPath: string, format: 'csv' | 'json', range: { start: string; end: string }): number => {
  const db = new Database(dbPath, { readonly: true });
  const rows = db.prepare(`SELECT id, body, unindexed FROM ephemail_documents WHERE collection = 'events' ORDER BY id`).iterate() as IterableIterator<Row>;
  const fd = openSync(outPath, 'w', 0o600);
  let text = format === 'csv' ? `${COLUMNS.join(',')}\r\n` : '[\n';
  let count = 0;
  for (const row of rows) {
    // The store keeps indexed fields in `body`, the others in `unindexed` (ADR 0027).
    const indexed = JSON.parse(row.body) as { identity_id: string; occurred_at: string };
    if (indexed.occurred_at < range.start) continue;
    if (indexed.occurred_at > range.end) break;
    const rest = JSON.parse(row.unindexed) as { type: string; data: unknown };
    const event = { id: row.id, type: rest.type, identity_id: indexed.identity_id, occurred_at: indexed.occurred_at, data: rest.data };
    if (format === 'csv') text += `${cell(event.id)},${cell(event.type)},${cell(event.identity_id)},${cell(event.occurred_at)},${cell(JSON.stringify(event.data))}\r\n`;
    else text += (count === 0 ? '' : ',\n') + JSON.stringify(event);
    count += 1;
    if (count % 1000 === 0) {
      writeSync(fd, text);
      text = '';
    }
  }
  writeSync(fd, format === 'csv' ? text : count === 0 ? '[]\n' : `${text}\n]\n`);
  fsyncSync(fd);
  closeSync(fd);
  db.close();
  return count;
};
