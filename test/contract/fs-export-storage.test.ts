import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsExportStorage } from '@ephemail/export-fs';
import test from 'ava';
import { runExportStorageContract } from './export-storage-suite.js';

const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-export-fs-'));
  return { dir, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
};

runExportStorageContract(test, 'fs export storage', async () => {
  const { dir, cleanup } = folder();
  return { storage: createFsExportStorage(join(dir, 'exports')), cleanup };
});

test('fs export storage: files are private to the owner, and an abandoned upload leaves no part file', async (t) => {
  const { dir, cleanup } = folder();
  t.teardown(cleanup);
  const storage = createFsExportStorage(join(dir, 'exports'));
  const up = await storage.create('exp_a-1.csv');
  up.stream.write('a,b\r\n');
  await up.commit();
  t.is(statSync(join(dir, 'exports', 'exp_a-1.csv')).mode & 0o777, 0o600);
  const crashed = await storage.create('exp_a-2.csv');
  await new Promise((resolve) => crashed.stream.write('half', resolve));
  t.true(readdirSync(join(dir, 'exports')).includes('exp_a-2.csv.part'));
  // A later remove (the purge) deletes what a host that stopped mid-upload left behind.
  t.false(await storage.remove('exp_a-2.csv'));
  t.deepEqual(readdirSync(join(dir, 'exports')).sort(), ['exp_a-1.csv']);
  await crashed.abort();
});

test('fs export storage: text larger than its write block, and text and bytes mixed, land in order', async (t) => {
  const { dir, cleanup } = folder();
  t.teardown(cleanup);
  const storage = createFsExportStorage(join(dir, 'exports'));
  const up = await storage.create('exp_b-1.json');
  const big = 'é'.repeat(1_500_000);
  up.stream.write('[');
  up.stream.write(big);
  up.stream.write(Buffer.from(']\n'));
  t.is(await up.commit(), 1 + Buffer.byteLength(big) + 2);
  const file = await storage.open('exp_b-1.json');
  const parts: Buffer[] = [];
  for await (const part of file!.stream) parts.push(part as Buffer);
  t.is(Buffer.concat(parts).toString('utf8'), `[${big}]\n`);
});
