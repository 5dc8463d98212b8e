import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { csvCells } from './csv-cells.js';
import type { ExportFormat } from './export-record.js';
import type { CsvEncoder } from './ports.js';

/** Writes an export's rows into its file, one page at a time, in the file's format. */
export interface RowWriter {
  /** Writes rows after those before, as one chunk; resolves once the stream can take more. */
  page(rows: readonly object[]): Promise<void>;
  /** Writes whatever closes the file (JSON's closing bracket); the upload's commit ends the stream. */
  finish(): Promise<void>;
}

/**
 * Writes to the upload's stream, waiting for `drain` when its buffer is full, so a slow disk holds
 * the reader back instead of letting pages pile up in memory. A stream fails asynchronously (after
 * `write` answered), so its first error is kept from the moment the writer exists, rather than
 * left unheard (an uncaught 'error' would end the process), and the next write throws it.
 */
const sink = (stream: Writable) => {
  let failure: unknown;
  stream.on('error', (error) => {
    failure ??= error;
  });
  return async (text: string): Promise<void> => {
    // `errored` is set at once; the 'error' event comes a tick later.
    if (failure !== undefined || stream.errored !== null) throw failure ?? stream.errored;
    if (stream.destroyed) throw new Error('the export file was closed while it was written');
    if (text.length === 0) return;
    if (!stream.write(text)) await once(stream, 'drain');
  };
};

/**
 * A JSON array, one row per line: `[` then rows separated by `,` and a newline, then `]`. A
 * parser reads it as one array; a line-oriented reader can take each line after the first as a
 * row once it strips the trailing comma.
 */
const jsonWriter = (stream: Writable): RowWriter => {
  const put = sink(stream);
  let first = true;
  return {
    page: async (rows) => {
      if (rows.length === 0) return;
      let text = first ? '[\n' : ',\n';
      first = false;
      for (let i = 0; i < rows.length; i += 1) text += (i === 0 ? '' : ',\n') + JSON.stringify(rows[i]);
      await put(text);
    },
    finish: () => put(first ? '[]\n' : '\n]\n'),
  };
};

/** CSV with a header row of the column names; every cell passes the formula guard first. */
const csvWriter = (stream: Writable, encoder: CsvEncoder, columns: readonly string[]): RowWriter => {
  const put = sink(stream);
  let header = true;
  const headerText = () => {
    if (!header) return '';
    header = false;
    return encoder.encode([columns]);
  };
  return {
    page: async (rows) => {
      const cells = rows.map((row) => csvCells(row, columns));
      await put(headerText() + encoder.encode(cells));
    },
    finish: () => put(headerText()),
  };
};

export const rowWriter = (format: ExportFormat, stream: Writable, csv: { encoder: CsvEncoder; columns: readonly string[] }): RowWriter =>
  format === 'json' ? jsonWriter(stream) : csvWriter(stream, csv.encoder, csv.columns);
