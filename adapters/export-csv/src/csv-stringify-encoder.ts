import type { CsvEncoder } from '@ephemail/core';
import { stringify, type Options } from 'csv-stringify/sync';

/** Options of {@link createCsvStringifyEncoder}. */
export interface CsvStringifyEncoderOptions {
  /** Between cells. Default `,`. */
  readonly delimiter?: string;
  /** After each record. Default `\r\n` (RFC 4180). */
  readonly recordDelimiter?: string;
  /** Quote every cell, not only those that need it. Default false. */
  readonly quoteAll?: boolean;
}

/**
 * The core's {@link CsvEncoder} on csv-stringify's synchronous API: one call per page of rows.
 * Cells are quoted when they hold the delimiter, a double quote, CR or LF (csv-stringify leaves
 * a lone LF unquoted when the record delimiter is CRLF unless told otherwise, which most readers
 * would split into two records). csv-stringify's own formula escaping stays off: core guards
 * cells before they get here, and escaping twice would double the apostrophe.
 */
export const createCsvStringifyEncoder = (options: CsvStringifyEncoderOptions = {}): CsvEncoder => {
  const settings: Options = {
    delimiter: options.delimiter ?? ',',
    record_delimiter: options.recordDelimiter ?? '\r\n',
    quote_record_delimiter: true,
    quoted: options.quoteAll ?? false,
    escape_formulas: false,
    eof: true,
  };
  return {
    encode: (rows) => (rows.length === 0 ? '' : stringify(rows as string[][], settings)),
  };
};
