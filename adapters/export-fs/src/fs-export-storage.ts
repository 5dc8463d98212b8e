import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ExportFile, ExportStorage, ExportUpload } from '@ephemail/core';
import { FileSink } from './file-sink.js';

/** Options of {@link createFsExportStorage}. */
export interface FsExportStorageOptions {
  /** Permission bits of the files (and 0o700-style bits of the folder when it is created). Default 0o600. */
  readonly fileMode?: number;
  /** Flush every file to the disk before it is committed, so a crash never leaves a committed file short. Default true. */
  readonly fsync?: boolean;
}

const KEY = /^(?!\.)[A-Za-z0-9_.-]{1,200}$/;
const PART = '.part';

/** Folder mode from file mode: owner read/write become read/write/search. */
const folderMode = (fileMode: number): number => fileMode | ((fileMode & 0o444) >> 2);

const ignoreMissing = (error: unknown): false => {
  if ((error as { code?: string }).code === 'ENOENT') return false;
  throw error;
};

/** An upload into `<final>.part`, renamed to `final` at commit. */
const startUpload = async (final: string, fileMode: number, fsync: boolean): Promise<ExportUpload> => {
  const part = `${final}${PART}`;
  const handle = await open(part, 'w', fileMode);
  const stream = new FileSink(handle);
  // Heard from the start, so a failed write never goes unheard; commit reports it.
  const finished = new Promise<void>((done, fail) => {
    stream.once('finish', done);
    stream.once('error', fail);
    stream.once('close', () => fail(new Error('export-fs: the upload was abandoned')));
  });
  finished.catch(() => undefined);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    stream,
    commit: async () => {
      stream.end();
      await finished;
      if (fsync) await handle.sync();
      await close();
      await rename(part, final);
      return (await stat(final)).size;
    },
    abort: async () => {
      stream.destroy();
      await close().catch(() => undefined);
      await unlink(part).catch(ignoreMissing);
    },
  };
};

/**
 * The committed file, opened once and then sized and read through the same descriptor: a purge
 * that unlinks the file meanwhile cannot make the size and the bytes disagree.
 */
const openFile = async (path: string): Promise<ExportFile | undefined> => {
  const handle = await open(path, 'r').catch(ignoreMissing);
  if (handle === false) return undefined;
  try {
    const { size } = await handle.stat();
    return { size, stream: handle.createReadStream({ highWaterMark: 1 << 16 }) };
  } catch (error) {
    await handle.close();
    throw error;
  }
};

/**
 * {@link ExportStorage} on a local folder: one file per key. An upload writes `<key>.part` and is
 * renamed to `<key>` at commit, after an fsync, so readers see a whole file or none; a rename
 * within one folder is atomic. Every host that runs exports or serves downloads must see the
 * same folder (a shared volume when there are several machines).
 */
export const createFsExportStorage = (dir: string, options: FsExportStorageOptions = {}): ExportStorage => {
  const root = resolve(dir);
  const fileMode = options.fileMode ?? 0o600;
  const pathOf = (key: string): string => {
    // Keys never name a path outside the folder: no separators, no leading dot.
    if (!KEY.test(key)) throw new TypeError(`export-fs: invalid key ${JSON.stringify(key)}`);
    return join(root, key);
  };
  return {
    create: async (key) => {
      const final = pathOf(key);
      await mkdir(root, { recursive: true, mode: folderMode(fileMode) });
      return startUpload(final, fileMode, options.fsync ?? true);
    },
    open: async (key) => openFile(pathOf(key)),
    remove: async (key) => {
      const path = pathOf(key);
      await unlink(`${path}${PART}`).catch(ignoreMissing);
      return unlink(path).then(() => true, ignoreMissing);
    },
  };
};
