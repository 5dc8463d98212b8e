import type { Readable, Writable } from 'node:stream';

/**
 * Where export files live: the filesystem by default (`@ephemail/export-fs`), an object store in
 * a deployment of many hosts. Every host that runs exports or serves downloads must see the same
 * files. Keys are what core names them: `[A-Za-z0-9_.-]`, 1..200 characters, never starting with
 * a dot; an adapter may refuse any other key by rejecting.
 */
export interface ExportStorage {
  /**
   * Starts writing the file `key`. Nothing of it is readable through {@link open} until the
   * upload's `commit` resolves; an earlier committed file of the same key is then replaced as a
   * whole (a reader sees the old bytes or the new, never a mix). Core runs at most one upload of
   * a key at a time (each attempt of an export writes a key of its own), so an adapter may keep
   * the uncommitted bytes under a name derived from the key.
   */
  create(key: string): Promise<ExportUpload>;

  /**
   * The committed file `key`: its size in bytes and a fresh stream of exactly those bytes, or
   * `undefined` when there is none. The caller consumes or destroys the stream.
   */
  open(key: string): Promise<ExportFile | undefined>;

  /**
   * Deletes the committed file `key` and any uncommitted bytes of an upload of it (one a crashed
   * host left behind). Answers whether a committed file was there. Idempotent: removing a key
   * that is absent answers `false` and is not an error.
   */
  remove(key: string): Promise<boolean>;
}

/** An upload in progress, from {@link ExportStorage.create}. */
export interface ExportUpload {
  /**
   * Where the bytes go, in order. The writer honours backpressure (waits for `drain` when
   * `write` answers false) and never ends the stream itself: `commit` does.
   */
  readonly stream: Writable;
  /**
   * Ends the stream, waits until every byte is stored durably, then makes the file readable
   * under its key. Answers its size in bytes. Rejects when a write or the commit failed, and
   * then nothing is committed.
   */
  commit(): Promise<number>;
  /**
   * Abandons the upload: nothing is committed and the bytes written so far are deleted. Safe
   * after a failed write and after a failed commit; calling it twice is harmless.
   */
  abort(): Promise<void>;
}

/** A committed export file, opened for reading. */
export interface ExportFile {
  readonly size: number;
  readonly stream: Readable;
}

/**
 * Turns rows of text cells into CSV (RFC 4180): cells joined by `,`, each record ended by CRLF,
 * a cell quoted when it holds a comma, a double quote, CR or LF, double quotes doubled. Cells
 * are written as given: core has already applied the formula guard, so an encoder must not
 * alter a cell's text in any other way. Synchronous because it is pure computation over one
 * page of rows (nothing to wait for, nothing that can fail but a bug), and it runs once per page
 * on the export's hot path.
 */
export interface CsvEncoder {
  /** The CSV text of `rows`, in order; the empty string for no rows. */
  encode(rows: readonly (readonly string[])[]): string;
}
