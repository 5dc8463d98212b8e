import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import S3rver from 's3rver';
import { loadConfig, startHost } from '@ephemail/host-api';
import { tempDir } from './support.js';

// The host with EXPORT_S3_*: export files go to an S3-compatible bucket (s3rver on loopback),
// and the signed download streams them back from there.

test('exports e2e (S3): with EXPORT_S3_BUCKET the file is written to the bucket and downloaded from it', async (t) => {
  const { dir, cleanup } = tempDir('ephemail-e2e-s3');
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3') });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await s3.send(new CreateBucketCommand({ Bucket: 'e2e-exports' }));
  const host = await startHost(
    loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'e2e.sqlite')}`, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', EXPORT_INTERVAL_MS: '50',
      EXPORT_S3_BUCKET: 'e2e-exports', EXPORT_S3_ENDPOINT: endpoint, EXPORT_S3_FORCE_PATH_STYLE: 'true', EXPORT_S3_ACCESS_KEY_ID: 'S3RVER', EXPORT_S3_SECRET_ACCESS_KEY: 'S3RVER',
    }),
  );
  t.teardown(async () => {
    await host.close();
    s3.destroy();
    await server.close();
    cleanup();
  });
  const created = await host.ephemail.auth.createApiKey({ orgId: 'org_s3', projectIds: ['proj_s3'], scopes: ['identities:write', 'exports:read', 'exports:write'] });
  if (E.isLeft(created)) return t.fail(created.left._tag);
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${created.right.key}`, 'x-org-id': 'org_s3', 'x-project-id': 'proj_s3' };
    if (method !== 'GET') Object.assign(headers, { 'idempotency-key': randomUUID(), 'content-type': 'application/json' });
    const res = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as any;
  };
  for (const label of ['one', 'two', 'three']) await call('POST', '/v1/identities', { label });
  const exp = await call('POST', '/v1/exports', { type: 'identities', format: 'json' });
  let view = exp;
  for (let i = 0; i < 2_400 && view.status !== 'ready' && view.status !== 'failed'; i += 1) {
    await new Promise((r) => setTimeout(r, 25));
    view = await call('GET', `/v1/exports/${exp.id}`);
  }
  t.is(view.status, 'ready', JSON.stringify(view));
  t.is(view.row_count, 3);
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'e2e-exports', Prefix: 'exports/' }));
  t.is(listed.Contents?.length, 1);
  t.is(listed.Contents![0]!.Size, view.file_size_bytes);
  const download = await fetch(view.download_url);
  t.is(download.status, 200);
  const rows = (await download.json()) as { label: string }[];
  t.deepEqual(rows.map((r) => r.label).sort(), ['one', 'three', 'two']);
});
