import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { createS3ExportStorage } from '@ephemail/export-s3';
import test from 'ava';
import S3rver from 's3rver';
import { runExportStorageContract } from './export-storage-suite.js';

// The export-storage contract against the S3 adapter and a real S3 protocol peer on loopback
// (s3rver keeps objects on disk). Each case gets a bucket of its own.

let server: S3rver;
let client: S3Client;
let dir: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ephemail-s3rver-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port } = await server.run();
  client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
});

test.after.always(async () => {
  client?.destroy();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

runExportStorageContract(test, 's3 export storage', async () => {
  const bucket = `exports-${randomUUID().slice(0, 8)}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return { storage: createS3ExportStorage(client, { bucket, prefix: 'exports/' }), cleanup: async () => undefined };
});
