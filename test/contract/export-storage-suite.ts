import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { ExportStorage, ExportUpload } from '@ephemail/core';
import type { ExecutionContext, TestFn } from 'ava';

/** One rule of the export-storage contract, checked against a fresh storage. */
type StorageCase = (t: ExecutionContext, storage: ExportStorage) => Promise<void>;

/** A key no other test uses, shaped as core names export files. */
const newKey = (format = 'csv'): string => `exp_${randomUUID().replaceAll('-', '')}-1.${format}`;

/** Writes the chunks in order, waiting for `drain` whenever the stream asks, as core does. */
const writeAll = async (upload: ExportUpload, chunks: readonly (string | Buffer)[]): Promise<void> => {
  for (const chunk of chunks) if (!upload.stream.write(chunk)) await once(upload.stream, 'drain');
};

const readAll = async (stream: Readable): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as string));
  return Buffer.concat(parts);
};

const upload = async (storage: ExportStorage, key: string, chunks: readonly (string | Buffer)[]): Promise<number> => {
  const up = await storage.create(key);
  await writeAll(up, chunks);
  return up.commit();
};

const digest = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export const exportStorageCases: Readonly<Record<string, StorageCase>> = {
  'a committed file reads back its exact bytes, and commit answers their size': async (t, storage) => {
    const key = newKey();
    const chunks = ['id,label\r\n', 'ident_1,"caf\u00e9, ☕"\r\n', Buffer.from([0xe2, 0x82, 0xac, 0x0a])];
    const expected = Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c)));
    t.is(await upload(storage, key, chunks), expected.length);
    const file = await storage.open(key);
    t.truthy(file);
    t.is(file!.size, expected.length);
    t.deepEqual(await readAll(file!.stream), expected);
  },
  'nothing is readable before the commit': async (t, storage) => {
    const key = newKey();
    const up = await storage.create(key);
    await writeAll(up, ['half of a file']);
    t.is(await storage.open(key), undefined);
    await up.commit();
    t.truthy(await storage.open(key));
  },
  'a commit replaces the earlier file of its key as a whole': async (t, storage) => {
    const key = newKey();
    await upload(storage, key, ['first version, rather long\n'.repeat(100)]);
    const before = await storage.open(key);
    await upload(storage, key, ['second\n']);
    const after = await storage.open(key);
    t.is(after!.size, 7);
    t.is((await readAll(after!.stream)).toString(), 'second\n');
    // A stream opened before the replacement reads the old file whole or the new one whole.
    const earlier = (await readAll(before!.stream)).toString();
    t.true(earlier === 'first version, rather long\n'.repeat(100) || earlier === 'second\n');
  },
  'an aborted upload leaves nothing behind': async (t, storage) => {
    const key = newKey();
    const up = await storage.create(key);
    await writeAll(up, ['partial rows']);
    await up.abort();
    await up.abort();
    t.is(await storage.open(key), undefined);
    t.false(await storage.remove(key));
  },
  'remove deletes the file once and is idempotent': async (t, storage) => {
    const key = newKey('json');
    await upload(storage, key, ['[]\n']);
    t.true(await storage.remove(key));
    t.is(await storage.open(key), undefined);
    t.false(await storage.remove(key));
    t.false(await storage.remove(newKey()));
  },
  'remove also abandons an upload in progress': async (t, storage) => {
    const key = newKey();
    const up = await storage.create(key);
    await writeAll(up, ['bytes of a crashed attempt']);
    await storage.remove(key);
    // Whatever the commit does now, no partial file may be served under the key afterwards
    // unless the commit itself succeeded with every byte.
    const committed = await up.commit().then(() => true, () => false);
    const file = await storage.open(key);
    if (committed) t.is((await readAll(file!.stream)).toString(), 'bytes of a crashed attempt');
    else t.is(file, undefined);
  },
  'a large file written with backpressure reads back identical': async (t, storage) => {
    const key = newKey();
    const chunks = Array.from({ length: 160 }, () => randomBytes(32 * 1024));
    t.is(await upload(storage, key, chunks), 160 * 32 * 1024);
    const file = await storage.open(key);
    t.is(digest(await readAll(file!.stream)), digest(Buffer.concat(chunks)));
  },
  'keys are independent, and each open is a fresh stream': async (t, storage) => {
    const [a, b] = [newKey(), newKey()];
    await Promise.all([upload(storage, a, ['aaa']), upload(storage, b, ['bbbb'])]);
    const [one, two] = [await storage.open(a), await storage.open(a)];
    t.is((await readAll(one!.stream)).toString(), 'aaa');
    t.is((await readAll(two!.stream)).toString(), 'aaa');
    t.is((await readAll((await storage.open(b))!.stream)).toString(), 'bbbb');
    await storage.remove(a);
    t.truthy(await storage.open(b));
  },
  'keys that could name another place are refused': async (t, storage) => {
    for (const key of ['../escape.csv', 'a/b.csv', '.hidden', '', 'x'.repeat(201), 'a\\b.csv']) {
      await t.throwsAsync(async () => storage.create(key), undefined, key);
      await t.throwsAsync(async () => storage.open(key), undefined, key);
      await t.throwsAsync(async () => storage.remove(key), undefined, key);
    }
  },
};

/**
 * Registers the export-storage contract with `test`, one test per rule, titled `'<name>: <rule>'`.
 * Each test gets its own storage from `factory`; keys are random, so tests may run concurrently.
 */
export const runExportStorageContract = (test: TestFn, name: string, factory: () => Promise<{ storage: ExportStorage; cleanup?: () => Promise<void> }>): void => {
  for (const [rule, check] of Object.entries(exportStorageCases)) {
    test(`${name}: ${rule}`, async (t) => {
      const { storage, cleanup } = await factory();
      if (cleanup !== undefined) t.teardown(cleanup);
      await check(t, storage);
    });
  }
};
