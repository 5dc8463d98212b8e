import { Readable, Writable } from 'node:stream';
import type { ExportFile, ExportStorage, ExportUpload } from '../exports/ports.js';

const KEY = /^(?!\.)[A-Za-z0-9_.-]{1,200}$/;

const checked = (key: string): string => {
  if (!KEY.test(key)) throw new TypeError(`export storage: invalid key ${JSON.stringify(key)}`);
  return key;
};

/** An upload collecting its chunks; committed into `files` unless removed or aborted meanwhile. */
const memoryUpload = (key: string, files: Map<string, Buffer>, uploads: Map<string, Buffer[]>): ExportUpload => {
  const chunks: Buffer[] = [];
  uploads.set(key, chunks);
  const stream = new Writable({
    write(chunk: Buffer | string, encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
      done();
    },
  });
  let aborted = false;
  return {
    stream,
    commit: async () => {
      await new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(() => resolve());
      });
      if (aborted || uploads.get(key) !== chunks) throw new Error(`export storage: the upload of ${key} was abandoned`);
      const bytes = Buffer.concat(chunks);
      files.set(key, bytes);
      uploads.delete(key);
      return bytes.length;
    },
    abort: async () => {
      aborted = true;
      stream.destroy();
      if (uploads.get(key) === chunks) uploads.delete(key);
    },
  };
};

/**
 * {@link ExportStorage} in this process's memory: for embedding, tests and single-process
 * development. Files do not survive the process and are not shared with other hosts; every
 * byte is held in memory, so it suits small exports only.
 */
export const createMemoryExportStorage = (): ExportStorage & { readonly keys: () => string[] } => {
  const files = new Map<string, Buffer>();
  const uploads = new Map<string, Buffer[]>();
  return {
    create: async (key) => memoryUpload(checked(key), files, uploads),
    open: async (key): Promise<ExportFile | undefined> => {
      const bytes = files.get(checked(key));
      return bytes === undefined ? undefined : { size: bytes.length, stream: Readable.from([bytes]) };
    },
    remove: async (key) => {
      uploads.delete(checked(key));
      return files.delete(key);
    },
    /** The keys of committed files (for tests). */
    keys: () => [...files.keys()],
  };
};
