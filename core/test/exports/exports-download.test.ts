import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { signDownload } from '../../src/index.js';
import { downloaded, hostOver, linkParts, logEvent, readText, rightOf, setupExports } from './support.js';

const readyExport = async (options: Parameters<typeof setupExports>[0] = {}) => {
  const ctx = await setupExports(options);
  await logEvent(ctx.store, ctx.principal, '2026-02-28T10:00:00.000Z', { subject: 'Welcome' });
  const created = rightOf(await ctx.app.exports.create(ctx.principal, { type: 'events', format: 'csv' }));
  await ctx.app.exports.jobsTick('w1');
  return { ...ctx, ready: rightOf(await ctx.app.exports.get(ctx.principal, created.id)) };
};

test('downloads: a ready export has a signed link on the export host, valid one hour, that serves its file', async (t) => {
  const { app, clock, ready } = await readyExport();
  t.like(ready, { status: 'ready', completed_at: '2026-03-01T12:00:00.000Z', download_expires_at: '2026-03-01T13:00:00.000Z', download_available: true });
  const link = new URL(ready.download_url!);
  t.is(`${link.origin}${link.pathname}`, `https://files.example.com/v1/exports/${ready.id}/download`);
  t.deepEqual([...link.searchParams.keys()], ['expires', 'signature']);
  t.is(link.searchParams.get('expires'), String(Date.parse('2026-03-01T13:00:00.000Z') / 1000));
  const file = rightOf(await app.exports.download(linkParts(ready.download_url!)));
  t.like(file, { size: ready.file_size_bytes, contentType: 'text/csv; charset=utf-8', filename: `${ready.id}.csv` });
  const text = await readText(file.stream);
  t.is(Buffer.byteLength(text), ready.file_size_bytes!);
  t.true(text.startsWith('id,type,identity_id,occurred_at,data\r\n'));
  clock.advance(3_599_000);
  t.true(E.isRight(await app.exports.download(linkParts(ready.download_url!))));
});

test('downloads: an altered id, expiry or signature, or another host key, is refused before anything is read', async (t) => {
  const { app, principal, ready, store, storage, clock, key } = await readyExport();
  const parts = linkParts(ready.download_url!);
  const flip = (hex: string) => (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1);
  for (const altered of [
    { ...parts, signature: flip(parts.signature!) },
    { ...parts, expires: String(Number(parts.expires) + 3600) },
    { ...parts, exportId: 'exp_someoneelse0000000000000' },
    { ...parts, signature: undefined },
    { ...parts, signature: 'zz' },
    { ...parts, expires: '-1' },
  ]) {
    t.deepEqual(await app.exports.download(altered), E.left({ _tag: 'DownloadSignatureInvalid' }));
  }
  const otherKey = hostOver({ store, storage, clock, key: Buffer.alloc(32, 7) });
  t.deepEqual(await otherKey.exports.download(parts), E.left({ _tag: 'DownloadSignatureInvalid' }));
  // The same key on another host of the deployment verifies.
  t.true(E.isRight(await hostOver({ store, storage, clock, key }).exports.download(parts)));
  // A validly signed link to an export that is not ready answers like an unknown export.
  const pending = rightOf(await app.exports.create(principal, { type: 'events', format: 'json' }));
  const expires = Math.floor(clock.now().getTime() / 1000) + 60;
  t.like(await app.exports.download({ exportId: pending.id, expires: String(expires), signature: signDownload(key, pending.id, expires) }), { left: { _tag: 'ExportNotFound' } });
});

test('downloads: after the hour the link answers expired, the purge deletes the file once, and the export stays ready', async (t) => {
  const { app, principal, clock, storage, ready, store, key } = await readyExport();
  t.deepEqual(storage.keys(), [`${ready.id}-1.csv`]);
  clock.advance(3_600_000);
  t.deepEqual(await app.exports.download(linkParts(ready.download_url!)), E.left({ _tag: 'DownloadExpired', expiredAt: '2026-03-01T13:00:00.000Z' }));
  const expired = rightOf(await app.exports.get(principal, ready.id));
  t.deepEqual(expired, { ...ready, download_available: false });
  // Two hosts' maintenance at once: the file is deleted by one of them.
  const other = hostOver({ store, storage, clock, key });
  const reports = await Promise.all([app.exports.purgeTick(), other.exports.purgeTick(), app.exports.purgeTick()]);
  t.is(reports.reduce((n, r) => n + r.purged, 0), 1);
  t.deepEqual(storage.keys(), []);
  t.like(await store.get('exports', ready.id), { stage: 'done', file_removed_at: '2026-03-01T13:00:00.000Z' });
  t.deepEqual(rightOf(await app.exports.get(principal, ready.id)), expired);
  t.like(await app.exports.purgeTick(), { purged: 0 });
});

test('downloads: the purge waits for the download to expire, and clears a failed export at once', async (t) => {
  const { app, principal, clock, storage, ready } = await readyExport({ downloadTtlMs: 120_000 });
  t.like(ready, { download_expires_at: '2026-03-01T12:02:00.000Z' });
  t.like(await app.exports.purgeTick(), { purged: 0 });
  clock.advance(119_000);
  t.like(await app.exports.purgeTick(), { purged: 0 });
  t.is(await downloaded(app, ready), await downloaded(app, ready));
  const failing = rightOf(await app.exports.create(principal, { type: 'events', format: 'json' }));
  const [claim] = await app.exports.claim('dying', 1);
  for (let i = 0; i < 3; i += 1) {
    clock.advance(60_001);
    await app.exports.claim(`dying-${i}`, 1);
  }
  t.like(rightOf(await app.exports.get(principal, failing.id)), { status: 'failed' });
  t.truthy(claim);
  t.like(await app.exports.purgeTick(), { purged: 2 });
  t.deepEqual(storage.keys(), []);
});
