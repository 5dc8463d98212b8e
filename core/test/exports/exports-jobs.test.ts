import { Writable } from 'node:stream';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import type { DocumentStore, ExportStorage, ExportView } from '../../src/index.js';
import { iso, isoPlus } from '../../src/index.js';
import { downloaded, hostOver, logEvent, rightOf, setupExports } from './support.js';

/** The store, except that `find` on `collection` waits at a gate from its `after`+1-th call on: a host that froze mid-export. */
const freezing = (store: DocumentStore, collection: string, after: number) => {
  let calls = 0;
  let open!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const frozen = new Promise<void>((resolve) => (reached = resolve));
  const proxy = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (prop === 'find') {
        return async (c: string, q: Parameters<DocumentStore['find']>[1]) => {
          if (c === collection && ++calls > after) {
            reached();
            await gate;
          }
          return target.find(c, q);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, frozen, thaw: () => open() };
};

/** The storage, with `onWrite` told of every chunk before it is stored (and allowed to fail it). */
const watched = (storage: ExportStorage, onWrite: (key: string) => Promise<void>) => {
  const created: string[] = [];
  const wrapper: ExportStorage = {
    ...storage,
    create: async (key) => {
      created.push(key);
      const inner = await storage.create(key);
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          onWrite(key).then(() => (inner.stream.write(chunk) ? done() : inner.stream.once('drain', () => done())), done);
        },
      });
      return { stream, commit: () => new Promise<void>((r) => stream.end(r)).then(() => inner.commit()), abort: () => (stream.destroy(), inner.abort()) };
    },
  };
  return { storage: wrapper, created };
};

const eventsOf = async (store: DocumentStore, tenant: { orgId: string; projectId: string }, n: number) => {
  for (let i = 0; i < n; i += 1) await logEvent(store, tenant, isoPlus(new Date('2026-02-20T00:00:00.000Z'), i * 1000));
};

const expectedIds = async (store: DocumentStore, tenant: { orgId: string; projectId: string }) =>
  (await store.find('events', { where: { org_id: tenant.orgId, project_id: tenant.projectId }, sort: { field: 'occurred_at', direction: 'asc' } })).map((e) => e.id);

test('export jobs: of ten workers ticking at once, one claims the export and writes its file once', async (t) => {
  const ctx = await setupExports();
  const counted = watched(ctx.storage, async () => undefined);
  const host = hostOver({ ...ctx, storage: counted.storage });
  await eventsOf(ctx.store, ctx.principal, 12);
  const created = rightOf(await host.exports.create(ctx.principal, { type: 'events', format: 'json' }));
  const reports = await Promise.all(Array.from({ length: 10 }, (_, i) => host.exports.jobsTick(`w${i}`)));
  t.is(reports.reduce((n, r) => n + r.completed, 0), 1);
  t.deepEqual(counted.created, [`${created.id}-1.json`]);
  t.like(rightOf(await host.exports.get(ctx.principal, created.id)), { status: 'ready', row_count: 12 });
  t.deepEqual((await Promise.all(Array.from({ length: 10 }, (_, i) => host.exports.jobsTick(`w${i}`)))).map((r) => r.completed), Array(10).fill(0));
});

test('export jobs: a host that freezes mid-export loses it when its lease runs out; the next worker restarts it and its file is complete', async (t) => {
  const ctx = await setupExports({ pageSize: 5 });
  await eventsOf(ctx.store, ctx.principal, 20);
  const a = freezing(ctx.store, 'events', 2);
  const hostA = hostOver({ ...ctx, store: a.store }, { pageSize: 5 });
  const hostB = hostOver(ctx, { pageSize: 5 });
  const created = rightOf(await hostB.exports.create(ctx.principal, { type: 'events', format: 'json' }));
  const runA = hostA.exports.jobsTick('host-a');
  await a.frozen;
  t.like(rightOf(await hostB.exports.get(ctx.principal, created.id)), { status: 'processing', progress_percent: 25 });
  t.like(await hostB.exports.jobsTick('host-b'), { completed: 0 }, 'the lease still holds');
  ctx.clock.advance(60_001);
  t.like(await hostB.exports.jobsTick('host-b'), { completed: 1 });
  const ready = rightOf(await hostB.exports.get(ctx.principal, created.id));
  t.like(ready, { status: 'ready', row_count: 20 });
  const ids = (JSON.parse(await downloaded(hostB, ready)) as { id: string }[]).map((row) => row.id);
  t.deepEqual(ids, await expectedIds(ctx.store, ctx.principal));
  t.deepEqual(ctx.storage.keys(), [`${created.id}-2.json`]);
  t.like(await ctx.store.get('exports', created.id), { attempts: 2, interruptions: 1 });
  // Host A wakes up: it finds the export taken, writes nothing of it and keeps nothing.
  a.thaw();
  t.like(await runA, { lost: 1, completed: 0 });
  t.deepEqual(rightOf(await hostB.exports.get(ctx.principal, created.id)), ready);
  t.deepEqual(ctx.storage.keys(), [`${created.id}-2.json`]);
  t.is(await downloaded(hostB, ready), await downloaded(hostB, ready));
});

test('export jobs: an export interrupted three times fails instead of running again', async (t) => {
  const ctx = await setupExports();
  const created = rightOf(await ctx.app.exports.create(ctx.principal, { type: 'events', format: 'json' }));
  for (let i = 0; i < 3; i += 1) {
    t.is((await ctx.app.exports.claim(`dead-${i}`, 1)).length, 1);
    ctx.clock.advance(60_001);
  }
  t.deepEqual(await ctx.app.exports.claim('next', 1), []);
  const view = rightOf(await ctx.app.exports.get(ctx.principal, created.id));
  t.like(view, { status: 'failed' });
  t.regex(view.error!, /interrupted 3 times/);
  t.true(E.isRight(await ctx.app.exports.create(ctx.principal, { type: 'events', format: 'json' })));
});

test('export jobs: progress_percent is an integer that grows with each page while processing', async (t) => {
  const ctx = await setupExports({ pageSize: 5 });
  await eventsOf(ctx.store, ctx.principal, 20);
  const seen: ExportView[] = [];
  let id = '';
  const watching = watched(ctx.storage, async () => void seen.push(rightOf(await host.exports.get(ctx.principal, id))));
  const host = hostOver({ ...ctx, storage: watching.storage }, { pageSize: 5 });
  id = rightOf(await host.exports.create(ctx.principal, { type: 'events', format: 'csv' })).id;
  await host.exports.jobsTick('w1');
  t.deepEqual(seen.map((v) => [v.status, v.progress_percent]), [['processing', 0], ['processing', 25], ['processing', 50], ['processing', 75]]);
  const ready = rightOf(await host.exports.get(ctx.principal, id));
  t.false('progress_percent' in ready);
  t.is(ready.row_count, 20);
});

test('export jobs: a worker told to stop hands the export back, pending, and another finishes it', async (t) => {
  const ctx = await setupExports({ pageSize: 5 });
  await eventsOf(ctx.store, ctx.principal, 20);
  const stop = new AbortController();
  const stopping = watched(ctx.storage, async () => stop.abort());
  const host = hostOver({ ...ctx, storage: stopping.storage }, { pageSize: 5 });
  const created = rightOf(await host.exports.create(ctx.principal, { type: 'events', format: 'json' }));
  t.like(await host.exports.jobsTick('leaving', { signal: stop.signal }), { released: 1 });
  t.like(rightOf(await host.exports.get(ctx.principal, created.id)), { status: 'pending' });
  t.deepEqual(ctx.storage.keys(), []);
  t.like(await ctx.app.exports.jobsTick('staying'), { completed: 1 });
  t.like(await ctx.store.get('exports', created.id), { status: 'ready', row_count: 20, attempts: 2, interruptions: 0 });
});

test('export jobs: a storage failure fails the export with a reason and no internals, and frees its place', async (t) => {
  const ctx = await setupExports({ maxConcurrent: 1, pageSize: 5 });
  await eventsOf(ctx.store, ctx.principal, 20);
  const broken = watched(ctx.storage, async () => {
    throw Object.assign(new Error('EIO: i/o error, write /var/lib/ephemail/exports/x.part'), { code: 'EIO' });
  });
  const host = hostOver({ ...ctx, storage: broken.storage }, { maxConcurrent: 1, pageSize: 5 });
  const created = rightOf(await host.exports.create(ctx.principal, { type: 'events', format: 'csv' }));
  const errors: unknown[] = [];
  t.like(await host.exports.jobsTick('w1', { onError: (_id, error) => errors.push(error) }), { failed: 1 });
  t.like(rightOf(await host.exports.get(ctx.principal, created.id)), { status: 'failed', error: 'The export could not be written (EIO); create a new export.' });
  t.is(errors.length, 1);
  t.is((errors[0] as { code?: string }).code, 'EIO');
  t.deepEqual(ctx.storage.keys(), []);
  t.true(E.isRight(await host.exports.create(ctx.principal, { type: 'events', format: 'csv', date_range: { start: '2026-02-01', end: iso(ctx.clock.now()) } })));
});
